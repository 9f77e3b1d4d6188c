import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { resolvePathPrefix, searchWithFreshness, type IndexFreshness, type Retriever } from '@monorag/retriever';
import { formatPlaces, printablePath, qualifiedName } from '@monorag/shared';
import { z } from 'zod';
import { fenceCode } from './fence.js';
import { formatFreshness } from './format-freshness.js';
import { freshnessSchema, searchHitSchema } from './schemas.js';
import { toolArguments } from './tool-arguments.js';
import { errorResult } from './tool-result.js';

/** Options of {@link registerSearchCodeTool}. */
export interface SearchCodeToolOptions {
  retriever: Retriever;
  /** Absolute real path of the project root: an absolute `path` inside it is made repo-relative. */
  root: string;
  /** Largest `limit`. */
  maxLimit: number;
  /** The server's freshness (work tree included); default the retriever's (store only). */
  readFreshness?: () => Promise<IndexFreshness>;
  /** Turns `language` into a stored language id, throwing for an unknown one; default the value as given. */
  resolveLanguage?: (name: string, argName: string) => string;
}

/**
 * Registers `search_code`: hybrid search over the project's index. A `path` outside the project or an
 * unknown `language` is an `isError` result naming the argument. Each result's Markdown header names
 * its path with `printablePath`, so a file name with a newline stays on the header's one line.
 */
export function registerSearchCodeTool(
  server: McpServer,
  { retriever, root, maxLimit, readFreshness, resolveLanguage = (name) => name }: SearchCodeToolOptions,
): void {
  server.registerTool(
    'search_code',
    {
      title: 'Search code',
      description:
        'Search the indexed repository for code and documentation relevant to a natural-language question or identifier. ' +
        'Returns ranked chunks (path, 1-based inclusive line range, symbol, snippet). Use get_file_context to read more lines. ' +
        'Put any name you know into the query (a function, class, option, config key or error text, as written in the code): ' +
        'a name the index defines finds its definition first, while a description alone must bridge the words of the question and of the code.',
      inputSchema: toolArguments('search_code', {
        query: z.string().describe('What to find: a question or a description of behaviour, with the identifiers you know, or identifiers alone.'),
        limit: z.number().int().min(1).max(maxLimit).optional().describe(`Results to return (1-${maxLimit}, default 10).`),
        path: z.string().optional().describe('Only results whose repo-relative path starts with this prefix, e.g. "lib/" (an absolute path inside the project also works).'),
        language: z.string().optional().describe('Only results of this language, e.g. "typescript" (or "ts"), "python" (or "py"), "markdown".'),
      }),
      outputSchema: {
        results: z.array(searchHitSchema),
        mode: z.string(),
        index: freshnessSchema,
        warnings: z.array(z.string()),
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ query, limit, path, language }) => {
      try {
        const request = {
          query,
          limit,
          pathPrefix: path === undefined ? undefined : resolvePathPrefix(root, path, 'path'),
          language: language === undefined ? undefined : resolveLanguage(language, 'language'),
        };
        // The server's freshness also knows the work tree (HEAD, pending watcher paths), the retriever's only the store.
        const response = readFreshness ? await searchWithFreshness(retriever, request, readFreshness) : await retriever.search(request);
        const parts = response.results.map(
          (hit, i) =>
            `### ${i + 1}. ${printablePath(hit.path)}:${hit.startLine}-${hit.endLine}${qualifiedName(hit) ? ` \`${qualifiedName(hit)}\`` : ''} (${hit.kind}, score ${hit.score})\n` +
            fenceCode(hit.snippet, hit.language) +
            (hit.alsoAt ? `\nThe same text is also at ${formatPlaces(hit.alsoAt)}.` : ''),
        );
        const header = response.results.length === 0 ? 'No results.' : `${response.results.length} ${response.results.length === 1 ? 'result' : 'results'} for the query.`;
        const text = [header, ...response.warnings.map((w) => `> Warning: ${w}`), ...parts, formatFreshness(response.index)].join('\n\n');
        return { content: [{ type: 'text', text }], structuredContent: { ...response } };
      } catch (error) {
        return errorResult(error);
      }
    },
  );
}
