import type { SearchResponse } from '@monorag/retriever';
import { openRetriever } from '../open-retriever.js';
import { formatResults } from '../format-results.js';
import { createProjectContext } from '../project-context.js';

/** Options of `monorag search`. */
export interface SearchCommandOptions {
  project?: string;
  dataDir?: string;
  limit?: number;
  path?: string;
  language?: string;
  lexical?: boolean;
  json?: boolean;
}

/**
 * `monorag search <query>`: prints results; with `--json` prints only
 * `{"results":[{path,startLine,endLine,symbol,kind,score,snippet,language}], "mode", "index", "warnings"}` on stdout.
 */
export async function runSearchCommand(query: string, options: SearchCommandOptions): Promise<SearchResponse> {
  const context = createProjectContext({ project: options.project, argName: '--project', overrides: { dataDir: options.dataDir } });
  const index = await openRetriever(context);
  try {
    const searched = await index.retriever.search({
      query,
      limit: options.limit,
      pathPrefix: options.path,
      language: options.language,
      mode: options.lexical ? 'lexical' : 'hybrid',
    });
    // Freshness judged against the work tree (HEAD, queued hook paths, a run in progress).
    const response = { ...searched, index: await index.readFreshness() };
    process.stdout.write(options.json ? `${JSON.stringify(response)}\n` : formatResults(response));
    return response;
  } finally {
    await index.close();
  }
}
