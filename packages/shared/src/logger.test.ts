import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

describe('createLogger', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** Logs one warning through a logger on a temp file and returns what it wrote. */
  function written(pretty: boolean): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'monorag-logger-'));
    dirs.push(dir);
    const file = path.join(dir, 'log');
    const fd = openSync(file, 'w');
    createLogger({ level: 'warn', fd, pretty }).warn({ attempt: 2, reason: 'ECONNREFUSED' }, 'embedding request failed; retrying');
    closeSync(fd);
    return readFileSync(file, 'utf8');
  }

  it('writes JSON lines by default', () => {
    const record = JSON.parse(written(false)) as Record<string, unknown>;
    expect(record).toMatchObject({ level: 40, name: 'monorag', attempt: 2, reason: 'ECONNREFUSED', msg: 'embedding request failed; retrying' });
  });

  it('writes one readable line per record when pretty', () => {
    expect(written(true)).toBe('WARN: embedding request failed; retrying {"attempt":2,"reason":"ECONNREFUSED"}\n');
  });
});
