import type { RequestHandler } from 'express';
import type { McpServerOptions } from '@monorag/mcp';
import { resolvePathPrefix, type SearchResponse } from '@monorag/retriever';
import { sendThrown, sendValidationError } from './http-error.js';
import { searchBodyHint, searchBodySchema } from './rest-schemas.js';

/**
 * `POST /v1/search`: hybrid (or `lexical` / `dense`) search over the project's index. Answers 200 with
 * `{"results": [{path, startLine, endLine, symbol, kind, language, score, snippet}], "mode", "index",
 * "warnings"}`, the JSON of `monorag search --json` (the `index` freshness judged against the work tree,
 * as the CLI and the MCP tool do). A bad body is 400 naming the field; a `path` outside the project
 * 403; an unknown `language` 400; an unavailable embedder 503.
 */
export function createSearchHandler({ retriever, root, readFreshness, resolveLanguage = (name) => name, maxLimit = 50 }: McpServerOptions): RequestHandler {
  const schema = searchBodySchema(maxLimit);
  const hint = searchBodyHint(maxLimit);
  return async (req, res) => {
    const parsed = schema.safeParse(req.body ?? undefined);
    if (!parsed.success) return sendValidationError(res, parsed.error, hint);
    const { query, limit, mode, path, language } = parsed.data;
    try {
      const searched = await retriever.search({
        query,
        limit,
        mode,
        pathPrefix: path === undefined ? undefined : resolvePathPrefix(root, path, 'path'),
        language: language === undefined ? undefined : resolveLanguage(language, 'language'),
      });
      const response: SearchResponse = { ...searched, index: await readFreshness() };
      res.json(response);
    } catch (error) {
      sendThrown(res, error);
    }
  };
}
