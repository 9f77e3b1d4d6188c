import { describe, expect, it } from 'vitest';
import { isMonoragError } from '@monorag/shared';
import { SECRET_SCANNER_ID } from '@monorag/secrets';
import { REQUIRED_SCANNER_META, SECRET_SCANNER_META } from '../redact-file-text.js';
import { checkWorkerScanner } from './check-worker-scanner.js';

/** A store whose metadata is `meta`. */
const storeWith = (meta: Record<string, string>) => ({ getMeta: (key: string) => Promise.resolve(meta[key]) });

/** The error `checkWorkerScanner` throws for a worker with `redactSecrets` on an index with `meta`, or undefined. */
async function refusal(meta: Record<string, string>, redactSecrets: boolean): Promise<Error | undefined> {
  return checkWorkerScanner(storeWith(meta), redactSecrets, '/srv/repo').then(
    () => undefined,
    (error: unknown) => {
      expect(isMonoragError(error, 'CONFIG_INVALID')).toBe(true);
      return error as Error;
    },
  );
}

describe('checkWorkerScanner: a worker set up unlike its index does not start', () => {
  it('a worker with redaction off, on an index whose last whole-tree enqueue required it on (the trial): refused naming the setting, both values and both ways out', async () => {
    const error = await refusal({ [REQUIRED_SCANNER_META]: SECRET_SCANNER_ID, [SECRET_SCANNER_META]: SECRET_SCANNER_ID }, false);
    expect(error?.message).toBe(
      `The index of /srv/repo requires of every worker (set by the last whole-tree \`monorag jobs enqueue\` or \`monorag index\`) the secret scanner "${SECRET_SCANNER_ID}" (index.redactSecrets true), ` +
        'but this worker redacts with "off" (index.redactSecrets false): it would fail every job it takes, so it does not start. ' +
        'Start this worker with index.redactSecrets true (MONORAG_REDACT_SECRETS=true, or "index": {"redactSecrets": true} in monorag.json), as the enqueuer has it. ' +
        'To change the setting for the whole index instead, run a whole-tree `monorag jobs enqueue /srv/repo` (or `monorag index /srv/repo`) with index.redactSecrets false first: ' +
        'it re-scans every file and requires the new setting of every worker; then start the workers with it.',
    );
  });

  it('the other way round: redaction on, the index requires off', async () => {
    const error = await refusal({ [REQUIRED_SCANNER_META]: 'off' }, true);
    expect(error?.message).toContain(`requires of every worker (set by the last whole-tree \`monorag jobs enqueue\` or \`monorag index\`) the secret scanner "off" (index.redactSecrets false), but this worker redacts with "${SECRET_SCANNER_ID}" (index.redactSecrets true)`);
    expect(error?.message).toContain('Start this worker with index.redactSecrets false (MONORAG_REDACT_SECRETS=false,');
  });

  it('the requirement decides, not the scanner last recorded: after a whole-tree enqueue with the new setting, workers with it start', async () => {
    expect(await refusal({ [REQUIRED_SCANNER_META]: 'off', [SECRET_SCANNER_META]: SECRET_SCANNER_ID }, false)).toBeUndefined();
    expect(await refusal({ [REQUIRED_SCANNER_META]: SECRET_SCANNER_ID, [SECRET_SCANNER_META]: 'off' }, true)).toBeUndefined();
  });

  it('an index that records no scanner (new, or from before scanners were recorded) takes any worker', async () => {
    expect(await refusal({}, false)).toBeUndefined();
    expect(await refusal({}, true)).toBeUndefined();
  });

  it('an index last redacted in process (no requirement): the setting must match, a newer scanner with redaction on is fine (the worker re-scans)', async () => {
    const error = await refusal({ [SECRET_SCANNER_META]: SECRET_SCANNER_ID }, false);
    expect(error?.message).toContain(`The index of /srv/repo was last redacted with the secret scanner "${SECRET_SCANNER_ID}" (index.redactSecrets true), but this worker redacts with "off" (index.redactSecrets false): it would index files redacted unlike the rest, so it does not start.`);
    expect(await refusal({ [SECRET_SCANNER_META]: 'secretlint-12.0.0/recommend/1' }, true)).toBeUndefined();
    expect(await refusal({ [SECRET_SCANNER_META]: 'off' }, false)).toBeUndefined();
  });

  it('a requirement of another scanner version (an enqueuer of another monorag version): refused, saying to match versions or enqueue with this one', async () => {
    const error = await refusal({ [REQUIRED_SCANNER_META]: 'secretlint-12.0.0/recommend/1' }, true);
    expect(error?.message).toContain(`the secret scanner "secretlint-12.0.0/recommend/1" (index.redactSecrets true), but this worker redacts with "${SECRET_SCANNER_ID}" (index.redactSecrets true): it would fail every job it takes`);
    expect(error?.message).toContain('Run the workers with the monorag version of the enqueuer, or run a whole-tree `monorag jobs enqueue /srv/repo` with this version first');
  });
});
