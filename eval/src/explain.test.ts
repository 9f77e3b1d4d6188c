import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVAL_DIR } from './corpora.js';

const TSX = path.join(EVAL_DIR, '..', 'node_modules', '.bin', 'tsx');

/** Runs `pnpm eval:explain` (its script, as package.json runs it) and returns its exit code and stderr. */
function explain(args: string[]): { status: number; stderr: string } {
  try {
    execFileSync(TSX, ['--conditions=monorag-source', path.join(EVAL_DIR, 'src', 'explain.ts'), ...args], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    return { status: 0, stderr: '' };
  } catch (error) {
    const failed = error as { status: number; stderr: string };
    return { status: failed.status, stderr: failed.stderr };
  }
}

describe('pnpm eval:explain', () => {
  it('refuses an unknown question id before it fetches, starts an embedder or indexes anything', () => {
    const cacheDir = path.join(mkdtempSync(path.join(tmpdir(), 'monorag-explain-')), 'cache');
    const { status, stderr } = explain(['--cache-dir', cacheDir, 'u-l01', 'nosuchid']);
    expect(status).toBe(2);
    expect(stderr).toBe('eval:explain: no golden question nosuchid (ids are in eval/golden/*.json, e.g. u-s01)\n');
    expect(existsSync(cacheDir)).toBe(false);
  });
});
