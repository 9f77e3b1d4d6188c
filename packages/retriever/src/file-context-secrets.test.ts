import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFileContext } from './file-context.js';

/** A fake GitHub token and Slack webhook, built at run time so this file holds no literal a scanner flags. */
const body = (n: number): string => Array.from({ length: n }, (_, i) => 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789'[(i * 7 + 3) % 57]).join('');
const TOKEN = ['gh', 'p_', body(36)].join('');
const WEBHOOK = ['https://hooks.slack.com/services/', 'T0ABCDEFG/', 'B0ABCDEFG/', body(24)].join('');

describe('readFileContext and secrets', () => {
  it('serves a file with secrets redacted on their own lines, counts them in the lines returned, and keeps line numbers', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-ctx-secrets-')));
    const text = ['export const config = {', `  token: "${TOKEN}",`, `  alerts: "${WEBHOOK}",`, '  retries: 3,', '};', ''].join('\n');
    writeFileSync(path.join(root, 'config.ts'), text);

    const whole = await readFileContext({ root, path: 'config.ts' });
    expect(whole).toMatchObject({ startLine: 1, endLine: 5, totalLines: 5, redacted: 2, truncated: false });
    expect(whole.text).toBe(['export const config = {', '  token: "[REDACTED:github]",', '  alerts: "[REDACTED:slack]",', '  retries: 3,', '};'].join('\n'));
    expect(whole.text).not.toContain(TOKEN.slice(4));

    expect(await readFileContext({ root, path: 'config.ts', startLine: 3, endLine: 4 })).toMatchObject({ text: '  alerts: "[REDACTED:slack]",\n  retries: 3,', redacted: 1 });
    const clean = await readFileContext({ root, path: 'config.ts', startLine: 4, endLine: 5 });
    expect(clean.text).toBe('  retries: 3,\n};');
    expect(clean.redacted).toBeUndefined();
  });
});
