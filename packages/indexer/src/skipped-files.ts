import type { ChunkStore } from '@monorag/store';
import { inScope } from './path-scope.js';
import type { SkipReason } from './walk-project.js';

/**
 * Meta key of the files index runs looked at and left out on purpose, with when: JSON
 * `[["<repo-relative path>", <ms since the Unix epoch>], ...]`, sorted by path. Freshness reads it so
 * that a file the index leaves out (binary, too large, ...) is not pending once a run has handled it,
 * while a later change to it is (see `WorkTreeChangesOptions.skippedAtOf`).
 */
export const SKIPPED_FILES_META = 'skippedFiles';

/** Most files {@link SKIPPED_FILES_META} holds: beyond it the ones handled last are kept, and the others count as pending until a run handles them again. */
export const MAX_SKIPPED_FILES = 5000;

/**
 * Skip reasons that mean a run read (or measured) the file and decided, on its present content, to leave
 * it out. Not `unreadable` (the file was not read, and the index may hold an older text of it; a whole-tree
 * run records it all the same, see `indexProject`, and a run limited to paths keeps no earlier record of it)
 * nor the links (freshness counts a link only while the index holds its path, which the run has removed).
 */
const HANDLED: ReadonlySet<SkipReason> = new Set<SkipReason>(['too-large', 'binary', 'generated', 'minified', 'secret']);

/** Whether a skip of this reason means the run handled the file (see {@link HANDLED}). */
export function isHandledSkip(reason: SkipReason): boolean {
  return HANDLED.has(reason);
}

/**
 * Records, after an index run, the files it left out on purpose and when it looked at each (`handled`,
 * repo-relative path -> ms). A whole-tree run (`scope` undefined) replaces the record; a run limited to
 * `scope` replaces the entries inside it and keeps the others. Writes nothing when the record was empty and stays so.
 */
export async function recordSkippedFiles(
  store: Pick<ChunkStore, 'getMeta' | 'setMeta'>,
  handled: ReadonlyMap<string, number>,
  scope: readonly string[] | undefined,
): Promise<void> {
  const previous = await readSkippedFiles(store);
  const entries = new Map(scope ? [...previous].filter(([rel]) => !inScope(scope, rel)) : []);
  for (const [rel, at] of handled) entries.set(rel, at);
  if (entries.size === 0 && previous.size === 0) return;
  // Over the cap, the files handled last stay: the others read as pending, as before a run handled them.
  const kept = [...entries].sort((a, b) => b[1] - a[1]).slice(0, MAX_SKIPPED_FILES);
  kept.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  await store.setMeta(SKIPPED_FILES_META, entries.size === 0 ? '' : JSON.stringify(kept));
}

/** The record of {@link SKIPPED_FILES_META} (path -> ms the run looked at the file); empty when none is kept or the value is unreadable. */
export async function readSkippedFiles(store: Pick<ChunkStore, 'getMeta'>): Promise<Map<string, number>> {
  const raw = await store.getMeta(SKIPPED_FILES_META);
  const out = new Map<string, number>();
  if (raw === undefined || raw === '') return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    // A value written by something else: no record, as before the first run.
    return out;
  }
  if (!Array.isArray(parsed)) return out;
  for (const entry of parsed) {
    if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number' && Number.isFinite(entry[1])) out.set(entry[0], entry[1]);
  }
  return out;
}
