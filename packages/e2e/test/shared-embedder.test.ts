import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { makeFixtureRepo } from './fixture-repo.js';

const stateDir = mkdtempSync(path.join(tmpdir(), 'monorag-shared-embedder-'));
const env = { MONORAG_EMBEDDER_DIR: stateDir };

afterAll(async () => {
  await runCli(['embedder', 'stop'], env);
  rmSync(stateDir, { recursive: true, force: true });
});

describe('the managed embedding server', () => {
  it('is started once and shared by two projects (state in embedding.stateDir, not in the projects)', async () => {
    const first = makeFixtureRepo();
    const second = makeFixtureRepo();
    for (const repo of [first, second]) {
      const run = await runCli(['index', repo, '--json'], env);
      expect(run.code, run.stderr).toBe(0);
      expect(existsSync(path.join(repo, '.monorag', 'embedder.json'))).toBe(false);
    }
    const state = JSON.parse(readFileSync(path.join(stateDir, 'embedder.json'), 'utf8')) as { pid: number };
    const search = await runCli(['search', 'slugify a title', '--json', '--project', second], env);
    expect(search.code, search.stderr).toBe(0);
    // Still the same server process.
    expect((JSON.parse(readFileSync(path.join(stateDir, 'embedder.json'), 'utf8')) as { pid: number }).pid).toBe(state.pid);
    const stop = await runCli(['embedder', 'stop', '--project', first], env);
    expect(stop.stdout).toBe('Embedding server stopped.\n');
    expect(existsSync(path.join(stateDir, 'embedder.json'))).toBe(false);
  }, 240_000);
});
