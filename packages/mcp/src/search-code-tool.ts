import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { IndexFreshness, Retriever } from '@monorag/retriever';
import { z } from 'zod';
import { fenceCode } from './fence.js';
import { formatFreshness } from './format-freshness.js';
import { freshnessSchema, searchHitSchema } from './schemas.js';
import { errorResult } from './tool-result.js';

/** Registers `search_code`: hybrid search over the project's index. */
export function registerSearchCodeTool(
  server: McpServer,
  retriever: Retriever,
  maxLimit: number,
  readFreshness?: () => Promise<IndexFreshness>,
): void {
  server.registerTool(
    'search_code',
    {
      title: 'Search code',
      description:
        'Search the indexed repository for code and documentation relevant to a natural-language question or identifier. ' +
        'Returns ranked chunks (path, 1-based inclusive line range, symbol, snippet). Use get_file_context to read more lines.',
      inputSchema: {
        query: z.string().describe('What to find: a question, a description of behaviour, or identifiers.'),
        limit: z.number().int().min(1).max(maxLimit).optional().describe(`Results to return (1-${maxLimit}, default 10).`),
        path: z.string().optional().describe('Only results whose repo-relative path starts with this prefix, e.g. "lib/".'),
        language: z.string().optional().describe('Only results of this language id, e.g. "typescript", "python", "markdown".'),
      },
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
        const searched = await retriever.search({ query, limit, pathPrefix: path, language });
        // The server's freshness also knows the work tree (HEAD, pending watcher paths), the retriever's only the store.
        const response = readFreshness ? { ...searched, index: await readFreshness() } : searched;
        const parts = response.results.map(
          (hit, i) =>
            `### ${i + 1}. ${hit.path}:${hit.startLine}-${hit.endLine}${hit.symbol ? ` \`${hit.symbol}\`` : ''} (${hit.kind}, score ${hit.score})\n` +
            fenceCode(hit.snippet, hit.language),
        );
        const header = response.results.length === 0 ? 'No results.' : `${response.results.length} results for the query.`;
        const text = [header, ...response.warnings.map((w) => `> Warning: ${w}`), ...parts, formatFreshness(response.index)].join('\n\n');
        return { content: [{ type: 'text', text }], structuredContent: { ...response } };
      } catch (error) {
        return errorResult(error);
      }
    },
  );
}
