import { SECRET_SCANNER_META } from '@monorag/indexer';
import { queryAdapterStatus, type IndexFreshness, type QueryAdapterStatus, type QueueBacklog } from '@monorag/retriever';
import { countNoun, ErrorCode, MonoragError, settingSource, type FileRecord, type IndexIdentity } from '@monorag/shared';
import { openRetriever, type OpenIndex } from '../open-retriever.js';
import { createProjectContext, type ProjectContext } from '../project-context.js';
import { formatSecrets, indexSecrets, type IndexSecrets } from '../secret-summary.js';

/** Files chunked by line windows only, by reason (`no-grammar`, `minified`, ...) then language, with a few example paths. */
export interface FallbackSummary {
  files: number;
  byReason: { reason: string; language: string; files: number; examples: string[] }[];
}

/** Groups manifest entries that carry a fallback reason. */
export function fallbackSummary(files: readonly FileRecord[]): FallbackSummary {
  const groups = new Map<string, { reason: string; language: string; files: number; examples: string[] }>();
  let total = 0;
  for (const file of files) {
    if (file.fallback === undefined) continue;
    total++;
    const key = `${file.fallback}\0${file.language}`;
    const group = groups.get(key) ?? { reason: file.fallback, language: file.language, files: 0, examples: [] };
    group.files++;
    if (group.examples.length < 3) group.examples.push(file.path);
    groups.set(key, group);
  }
  return { files: total, byReason: [...groups.values()].sort((a, b) => b.files - a.files || a.reason.localeCompare(b.reason)) };
}

function formatFallbacks(summary: FallbackSummary): string {
  if (summary.files === 0) return 'none';
  const parts = summary.byReason.map((g) => `${g.files} ${g.language} (${g.reason}${g.reason === 'no-grammar' ? '' : `: ${g.examples.join(', ')}`})`);
  return `${countNoun(summary.files, 'file')}: ${parts.join('; ')}`;
}

/** What `monorag status --json` prints (and the gateway's `GET /v1/status` answers). */
export interface StatusReport extends IndexFreshness {
  /** Absolute real path of the project root. */
  root: string;
  /** The SQLite index file (its would-be path with the Qdrant store). */
  indexFile: string;
  identity: IndexIdentity;
  fallbacks: FallbackSummary;
  /**
   * Secrets replaced by `[REDACTED:<rule>]` in the indexed text, summed over the manifest (counts and paths,
   * never values), and `scanner`: the secret scanner the index was last completely redacted with
   * (`SECRET_SCANNER_ID`; `off` when `index.redactSecrets` was false; null when none is recorded yet).
   */
  secrets: IndexSecrets & { scanner: string | null };
  /** Whether dense search passes queries through the bundled query adapter of the index's model (`search.queryAdapter`). */
  queryAdapter: QueryAdapterStatus;
}

/**
 * Reads the {@link StatusReport} of an open index: its freshness, identity, fallbacks, secrets and query adapter. The freshness is
 * `readFreshness`: by default the index's own (against the work tree); a server passes the one its tools
 * report (which knows its watcher and its runs), so `GET /v1/status` says what `index_status` says.
 */
export async function readStatusReport(context: ProjectContext, index: OpenIndex, readFreshness: () => Promise<IndexFreshness> = index.readFreshness): Promise<StatusReport> {
  const freshness = await readFreshness();
  const files = await index.store.listFiles();
  const scanner = (await index.store.getMeta(SECRET_SCANNER_META)) ?? null;
  const { identity } = index.store;
  const queryAdapter = await queryAdapterStatus(identity.model, identity.dim, context.config.search.queryAdapter, { offBy: queryAdapterOffBy(context) });
  return { root: context.root, indexFile: context.storeFile, identity, ...freshness, fallbacks: fallbackSummary(files), secrets: { ...indexSecrets(files), scanner }, queryAdapter };
}

/** What switched the query adapter off, named where the user set it (a trial: the detail named both places). */
function queryAdapterOffBy(context: ProjectContext): string {
  const source = settingSource(['search', 'queryAdapter'], { projectRoot: context.root, overrides: context.overrides });
  if (source.kind === 'env') return `${source.variable} is off`;
  if (source.kind === 'file') return `"search.queryAdapter": false in ${source.file}`;
  return 'search.queryAdapter is false';
}

/** How `status` names the index's secret scanner: the text is only as redacted as it says. */
function scannerLine(scanner: string | null): string {
  if (scanner === null) return 'no secret scanner recorded yet';
  if (scanner === 'off') return 'redaction off: index.redactSecrets was false, secrets are indexed as written';
  return `scanner ${scanner}`;
}

/** How `status` shows the team stack's file-job queue: its backlog and workers, or why it could not be read. */
function queueLine({ name, jobs, active, failed, workers, error }: QueueBacklog): string {
  if (error !== null) return `${name} could not be read: ${error}`;
  return `${name}: ${jobs} file job(s) queued (${active} being indexed), ${failed} failed, ${workers} worker(s) connected`;
}

/**
 * `monorag status [path]`: what the index holds and how fresh it is (in queue mode also the file-job queue's backlog and workers).
 * The project comes from `path` or `--project` (`project`), not both.
 * @throws MonoragError `INVALID_ARGUMENT` when both are given; the errors of {@link openRetriever} (no index, ...)
 */
export async function runStatusCommand(options: { path?: string; project?: string; dataDir?: string; json?: boolean }): Promise<void> {
  if (options.path !== undefined && options.project !== undefined) {
    throw new MonoragError(
      ErrorCode.INVALID_ARGUMENT,
      `Both [path] (${options.path}) and --project (${options.project}) name the project; give it once, either way.`,
    );
  }
  const context = createProjectContext({
    project: options.path ?? options.project,
    argName: options.path !== undefined ? '[path]' : '--project',
    overrides: { dataDir: options.dataDir },
  });
  const index = await openRetriever(context);
  try {
    const status = await readStatusReport(context, index);
    if (options.json) {
      process.stdout.write(`${JSON.stringify(status)}\n`);
      return;
    }
    process.stdout.write(
      `Project: ${status.root}\nIndex: ${status.indexFile}\n` +
        `Model: ${status.identity.model} (${status.identity.dim} dims), chunker ${status.identity.chunkerVersion}\n` +
        `Files: ${status.files}, chunks: ${status.chunks}\n` +
        `Updated: ${status.indexedAt ?? (status.files === 0 ? 'never' : 'never completed (a first run was stopped part way, or is still running)')}${status.indexedCommit ? ` at commit ${status.indexedCommit}` : ''}\n` +
        `Fresh: ${status.stale ? `no. ${status.warning ?? 'The tree has moved on since the last run.'}` : 'yes'}\n` +
        (status.queue ? `Queue: ${queueLine(status.queue)}\n` : '') +
        `Line-window fallback: ${formatFallbacks(status.fallbacks)}\n` +
        `Secrets redacted: ${formatSecrets(status.secrets)}${status.secrets.examples.length > 0 ? `: ${status.secrets.examples.join(', ')}${status.secrets.files > status.secrets.examples.length ? ', ...' : ''}` : ''}` +
        ` (${scannerLine(status.secrets.scanner)})\n` +
        `Query adapter: ${status.queryAdapter.detail}\n`,
    );
  } finally {
    await index.close();
  }
}
