import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { readFileContext, type FileContext, type IndexFreshness } from '@monorag/retriever';
import { printablePath } from '@monorag/shared';
import { z } from 'zod';
import { fenceCode } from './fence.js';
import { formatFreshness } from './format-freshness.js';
import { freshnessSchema } from './schemas.js';
import { toolArguments } from './tool-arguments.js';
import { errorResult } from './tool-result.js';

/** Options of {@link registerFileContextTool}. */
export interface FileContextToolOptions {
  /** Absolute real path of the project root. */
  root: string;
  /** Most lines returned per call. */
  maxLines: number;
  /** Most characters returned per call. */
  maxChars: number;
  readFreshness: () => Promise<IndexFreshness>;
  /** Whether a repo-relative path may be read (see `FileContextOptions.isReadable`). */
  isReadable?: (relPath: string) => boolean;
}

/** The note after a truncated response: where to continue, and for a cut line that its rest cannot be read. */
function truncationNote(context: FileContext): string {
  const { cutLine, endLine, totalLines } = context;
  const next = endLine < totalLines ? `continue with startLine ${endLine + 1}; the file has ${totalLines} lines` : `it is the last line of the file`;
  if (!cutLine) return `\n\n(truncated: ${next})`;
  return (
    `\n\n(truncated: line ${cutLine.line} is ${cutLine.chars} characters long and was cut after its first ${cutLine.shown}; ` +
    `get_file_context reads lines from their start only, so the rest of this line cannot be read; ${next})`
  );
}

/**
 * Registers `get_file_context`: bounded, path-checked reading of lines of a project file. Files the
 * index's rules leave out (`isReadable`) and files holding a private key are refused as `isError` results.
 * An empty file is said to be one (`<path> is empty (0 lines).`), not shown as one empty line.
 */
export function registerFileContextTool(server: McpServer, options: FileContextToolOptions): void {
  server.registerTool(
    'get_file_context',
    {
      title: 'Read file lines',
      description:
        `Read lines of a file in the project (path relative to the project root; lines 1-based and inclusive). ` +
        `At most ${options.maxLines} lines or ${options.maxChars} characters per call; continue from endLine + 1 when truncated. ` +
        `A single line longer than ${options.maxChars} characters is cut there; the rest of it cannot be read.`,
      inputSchema: toolArguments('get_file_context', {
        path: z.string().describe('Repo-relative path, e.g. "lib/client.js".'),
        startLine: z.number().int().min(1).optional().describe('First line, 1-based (default 1).'),
        endLine: z.number().int().min(1).optional().describe('Last line, inclusive (default the end of the file; a response stops at the line limit and then says truncated).'),
      }),
      outputSchema: {
        path: z.string(),
        startLine: z.number().int(),
        endLine: z.number().int(),
        totalLines: z.number().int(),
        text: z.string(),
        truncated: z.boolean(),
        cutLine: z.object({ line: z.number().int(), shown: z.number().int(), chars: z.number().int() }).optional(),
        redacted: z.number().int().optional(),
        index: freshnessSchema,
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ path, startLine, endLine }) => {
      try {
        const context = await readFileContext({
          root: options.root, path, startLine, endLine, maxLines: options.maxLines, maxChars: options.maxChars, isReadable: options.isReadable,
        });
        const index = await options.readFreshness();
        const more = (context.truncated ? truncationNote(context) : '') + (context.redacted ? redactionNote(context.redacted) : '');
        const text =
          context.totalLines === 0
            ? `${printablePath(context.path)} is empty (0 lines).\n\n${formatFreshness(index)}`
            : `${printablePath(context.path)}:${context.startLine}-${context.endLine} of ${context.totalLines} lines\n\n${fenceCode(context.text)}${more}\n\n${formatFreshness(index)}`;
        return { content: [{ type: 'text', text }], structuredContent: { ...context, index } };
      } catch (error) {
        return errorResult(error);
      }
    },
  );
}

/** Says that secrets in the lines shown were replaced (the client never gets their values). */
function redactionNote(count: number): string {
  return `\n\n(${count} secret${count === 1 ? '' : 's'} in these lines (API or cloud tokens, credentials) ${count === 1 ? 'is' : 'are'} shown as [REDACTED:<rule>]; the rest is as written)`;
}
