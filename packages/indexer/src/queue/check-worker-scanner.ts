import { ErrorCode, MonoragError } from '@monorag/shared';
import type { ChunkStore } from '@monorag/store';
import { REQUIRED_SCANNER_META, SECRET_SCANNER_META, secretScannerOf } from '../redact-file-text.js';

/** The `index.redactSecrets` value that gives `scanner` (`off` is false, any scanner id true). */
function settingOf(scanner: string): boolean {
  return scanner !== 'off';
}

/**
 * Checks, before a queue worker takes jobs, that its `index.redactSecrets` fits the index it writes,
 * so that it does not take jobs only to fail them or to leave files redacted unlike the rest:
 * - when the index requires a scanner of every worker ({@link REQUIRED_SCANNER_META}, written by the last
 *   whole-tree `monorag jobs enqueue` or `monorag index`), the worker's must be that one (`indexFile`
 *   fails every job otherwise);
 * - else, when the index was last completely redacted with a scanner ({@link SECRET_SCANNER_META}, an
 *   in-process `monorag index`), the worker's setting must be the same (on or off); a newer scanner
 *   with redaction on is fine, since the worker then re-scans each file it is given.
 * An index that records neither (new, or from before scanners were recorded) takes any worker. A change of
 * the setting is made by a whole-tree enqueue with the new setting, which records it as required: workers
 * with it start from then on.
 * @param project the project root (or key), named in the message.
 * @throws MonoragError `CONFIG_INVALID` naming `index.redactSecrets`, the worker's value and scanner, the
 *   index's, and both ways out (the index's setting for this worker, or a whole-tree enqueue with the new one first).
 * @throws the store's errors.
 */
export async function checkWorkerScanner(store: Pick<ChunkStore, 'getMeta'>, redactSecrets: boolean, project: string): Promise<void> {
  const scanner = secretScannerOf(redactSecrets);
  const required = await store.getMeta(REQUIRED_SCANNER_META);
  const recorded = required === undefined ? await store.getMeta(SECRET_SCANNER_META) : undefined;
  const standing = required ?? recorded;
  if (standing === undefined || standing === scanner) return;
  if (required === undefined && settingOf(standing) === redactSecrets) return;
  const how = required === undefined ? 'was last redacted with' : 'requires of every worker (set by the last whole-tree `monorag jobs enqueue` or `monorag index`)';
  const index = `The index of ${project} ${how} the secret scanner "${standing}" (index.redactSecrets ${settingOf(standing)})`;
  const worker = `this worker redacts with "${scanner}" (index.redactSecrets ${redactSecrets})`;
  const fix =
    settingOf(standing) === redactSecrets
      ? // Same setting, another scanner version: the enqueuer ran another monorag version.
        `Run the workers with the monorag version of the enqueuer, or run a whole-tree \`monorag jobs enqueue ${project}\` with this version first (it re-scans every file and requires this scanner of every worker), then start the workers.`
      : `Start this worker with index.redactSecrets ${settingOf(standing)} (MONORAG_REDACT_SECRETS=${settingOf(standing)}, or "index": {"redactSecrets": ${settingOf(standing)}} in monorag.json), as the enqueuer has it. ` +
        `To change the setting for the whole index instead, run a whole-tree \`monorag jobs enqueue ${project}\` (or \`monorag index ${project}\`) with index.redactSecrets ${redactSecrets} first: ` +
        'it re-scans every file and requires the new setting of every worker; then start the workers with it.';
  throw new MonoragError(
    ErrorCode.CONFIG_INVALID,
    `${index}, but ${worker}: it would ${required === undefined ? 'index files redacted unlike the rest' : 'fail every job it takes'}, so it does not start. ${fix}`,
  );
}
