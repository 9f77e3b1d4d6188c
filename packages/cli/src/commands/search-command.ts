import { resolveLanguageId } from '@monorag/chunker';
import { resolvePathPrefix, type SearchResponse } from '@monorag/retriever';
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
 * `--language` takes an id or an alias (`ts`, `py`, ...); `--path` a repo-relative prefix or an absolute path inside the project.
 * @throws MonoragError `INVALID_ARGUMENT` for an unknown language, `PATH_OUTSIDE_PROJECT` for a `--path` outside the project.
 */
export async function runSearchCommand(query: string, options: SearchCommandOptions): Promise<SearchResponse> {
  const context = createProjectContext({ project: options.project, argName: '--project', overrides: { dataDir: options.dataDir } });
  const language = options.language === undefined ? undefined : resolveLanguageId(options.language, '--language');
  const pathPrefix = options.path === undefined ? undefined : resolvePathPrefix(context.root, options.path, '--path');
  const index = await openRetriever(context);
  try {
    const searched = await index.retriever.search({
      query,
      limit: options.limit,
      pathPrefix,
      language,
      mode: options.lexical ? 'lexical' : 'hybrid',
    });
    // Freshness judged against the work tree (HEAD, queued hook paths, a run in progress).
    const response = { ...searched, index: await index.readFreshness() };
    if (!options.json) for (const warning of response.warnings) process.stderr.write(`monorag: warning: ${warning}\n`);
    process.stdout.write(options.json ? `${JSON.stringify(response)}\n` : formatResults(response));
    return response;
  } finally {
    await index.close();
  }
}
