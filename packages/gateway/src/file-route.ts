import type { RequestHandler } from 'express';
import type { McpServerOptions } from '@monorag/mcp';
import { readFileContext } from '@monorag/retriever';
import { sendThrown, sendValidationError } from './http-error.js';
import { FILE_QUERY_HINT, fileQuerySchema } from './rest-schemas.js';

/**
 * `GET /v1/file?path=&startLine=&endLine=`: exact lines of a project file with the bounds and refusals
 * of the MCP tool `get_file_context` (at most `maxLines` lines, default 400, or `maxChars` characters,
 * default 40,000, per call; paths outside the project are refused with 403 `PATH_OUTSIDE_PROJECT`, files
 * the index's rules leave out and files holding a private key with 403 `PATH_IGNORED`). Answers 200 with
 * `{path, startLine, endLine, totalLines, text, truncated, cutLine?, index}`, the tool's structured result.
 */
export function createFileHandler({ root, readFreshness, isReadable, maxLines = 400, maxChars = 40_000 }: McpServerOptions): RequestHandler {
  return async (req, res) => {
    const parsed = fileQuerySchema.safeParse(req.query);
    if (!parsed.success) return sendValidationError(res, parsed.error, FILE_QUERY_HINT);
    const { path, startLine, endLine } = parsed.data;
    try {
      const context = await readFileContext({ root, path, startLine, endLine, maxLines, maxChars, isReadable });
      res.json({ ...context, index: await readFreshness() });
    } catch (error) {
      sendThrown(res, error);
    }
  };
}
