import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { pathThroughLink, pathThroughLinkWarning } from '@monorag/indexer';
import { printablePath } from '@monorag/shared';
import { z } from 'zod';
import { directoryCount } from './directory-count.js';
import { formatFreshness } from './format-freshness.js';
import type { IndexControl, IndexRunSummary } from './index-control.js';
import { freshnessSchema } from './schemas.js';
import { toolArguments } from './tool-arguments.js';
import { errorResult } from './tool-result.js';
import { resolvePathPrefix } from '@monorag/retriever';

const runSchema = z.object({
  mode: z.enum(['full', 'paths']),
  files: z.number().int(),
  added: z.number().int(),
  changed: z.number().int(),
  deleted: z.number().int(),
  unchanged: z.number().int(),
  chunksEmbedded: z.number().int(),
  moved: z.number().int(),
  cachePruned: z.number().int(),
  durationMs: z.number(),
  skipped: z
    .object({
      total: z.number().int(),
      files: z.array(z.object({ path: z.string(), reason: z.string(), detail: z.string().optional(), removed: z.boolean().optional() })),
    })
    .optional(),
  enqueued: z.object({ queue: z.string(), jobs: z.number().int(), workers: z.number().int() }).optional(),
});

/** ` Skipped N: a (too-large: ...), b (binary)[, and M more].` for a run that left files out; '' otherwise. */
function describeSkipped(run: IndexRunSummary): string {
  if (!run.skipped || run.skipped.total === 0) return '';
  const { total, files } = run.skipped;
  const named = files.map((f) => `${printablePath(f.path)} (${f.reason}${f.detail ? `: ${f.detail}` : ''}${f.removed ? '; removed from the index' : ''})`);
  return ` Skipped ${total}: ${named.join(', ')}${total > files.length ? `, and ${total - files.length} more` : ''}.`;
}

function describeRun(run: IndexRunSummary): string {
  if (run.enqueued) {
    const { queue, jobs, workers } = run.enqueued;
    return (
      `${run.mode} run: ${jobs} file job(s) enqueued on ${queue} for the workers (${run.unchanged} files unchanged) in ${(run.durationMs / 1000).toFixed(1)} s; ` +
      (jobs === 0 ? '' : workers === 0 ? 'no worker is connected, so nothing is indexed until one starts (`monorag worker`); ' : `${workers} worker(s) connected; `) +
      `${run.files} files in the index.`
    );
  }
  return `${run.mode} run: ${run.added} added (${run.moved} moved), ${run.changed} changed, ${run.deleted} deleted, ${run.unchanged} unchanged; ${run.chunksEmbedded} chunks embedded in ${(run.durationMs / 1000).toFixed(1)} s; ${run.files} files in the index.${describeSkipped(run)}`;
}

/** The warning of a `sync_index` path that names nothing (the CLI's `index --paths` warns the same way). */
function unknownPathWarning(raw: string): string {
  return `Argument "paths": ${printablePath(raw)} names no file or directory of the project and nothing in its index; check the spelling (paths are relative to the project root).`;
}

/**
 * Registers `index_status` (read-only) and `sync_index` (starts an update, optionally waits for it;
 * warns about each path that names nothing, which such an update would silently skip). `root` is the
 * absolute real path of the project: `sync_index` takes paths absolute inside it, like the other tools.
 */
export function registerIndexTools(server: McpServer, control: IndexControl, root: string): void {
  server.registerTool(
    'index_status',
    {
      title: 'Index status',
      description: 'How fresh the index is: commit and time of the last update, pending changes, whether a file watcher runs, the last run and any error.',
      inputSchema: toolArguments('index_status', {}),
      outputSchema: {
        index: freshnessSchema,
        watching: z.enum(['native', 'polling', 'off']),
        watchedDirectories: z.number().int(),
        lastRun: runSchema.nullable(),
        lastError: z.string().nullable(),
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async () => {
      try {
        const status = await control.status();
        const lines = [
          `Watching: ${status.watching}${status.watching !== 'off' ? ` (${directoryCount(status.watchedDirectories)})` : ''}.`,
          status.lastRun ? `Last ${describeRun(status.lastRun)}` : 'No run in this server yet.',
          ...(status.lastError ? [`Last error: ${status.lastError}`] : []),
          formatFreshness(status.index),
        ];
        return { content: [{ type: 'text', text: lines.join('\n\n') }], structuredContent: { ...status } };
      } catch (error) {
        return errorResult(error);
      }
    },
  );

  server.registerTool(
    'sync_index',
    {
      title: 'Update the index',
      description:
        'Bring the index up to date with the files on disk: the given repo-relative paths, or the whole tree. ' +
        'With wait=true the call returns after the update has finished; otherwise it returns at once.',
      inputSchema: toolArguments('sync_index', {
        paths: z.array(z.string()).min(1, { error: 'expected at least one path (an empty list updates nothing; leave the argument out to update the whole tree)' }).max(10_000).optional().describe('Files or directories, repo-relative (or absolute inside the project); omit for the whole tree.'),
        wait: z.boolean().optional().describe('Wait for the update to finish (default false).'),
      }),
      outputSchema: { started: z.boolean(), run: runSchema.nullable(), index: freshnessSchema, warnings: z.array(z.string()) },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ paths: given, wait }) => {
      try {
        // As search_code's path and get_file_context: repo-relative, or absolute inside the project
        // (the project root itself means the whole tree); outside it is PATH_OUTSIDE_PROJECT naming `paths`.
        const paths = given?.map((raw) => resolvePathPrefix(root, raw, 'Argument "paths"') ?? '');
        const warnings = [
          ...(paths ? await control.unknownPaths(paths) : []).map(unknownPathWarning),
          // A path through a directory link exists, yet names nothing a run reads (the walk follows no link).
          ...(paths ?? []).flatMap((rel) => {
            const linked = pathThroughLink(root, rel);
            return linked ? [`Argument "paths": ${pathThroughLinkWarning(linked)}`] : [];
          }),
        ];
        const run = await control.sync({ paths, wait: wait ?? false });
        const { index } = await control.status();
        const text = [run ? `Finished: ${describeRun(run)}` : 'Update started.', ...warnings.map((w) => `> Warning: ${w}`), formatFreshness(index)].join('\n\n');
        return { content: [{ type: 'text', text }], structuredContent: { started: true, run, index, warnings } };
      } catch (error) {
        return errorResult(error);
      }
    },
  );
}
