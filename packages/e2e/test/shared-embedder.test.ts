import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

    // The model's info and vocabulary are remembered: an index run with nothing to embed starts no server.
    expect(JSON.parse(readFileSync(path.join(stateDir, 'model.json'), 'utf8'))).toMatchObject({ info: { dim: 384, maxSeqLength: 256 } });
    const noop = await runCli(['index', first, '--json'], env);
    expect(noop.code, noop.stderr).toBe(0);
    expect(JSON.parse(noop.stdout)).toMatchObject({ unchanged: 5, chunksEmbedded: 0 });
    expect(existsSync(path.join(stateDir, 'embedder.json'))).toBe(false);
    // A change to embed starts it again.
    writeFileSync(path.join(first, 'src', 'added.ts'), 'export function addedLater(): number {\n  return 42;\n}\n');
    const changed = await runCli(['index', first, '--json'], env);
    expect(changed.code, changed.stderr).toBe(0);
    expect(JSON.parse(changed.stdout)).toMatchObject({ added: 1 });
    expect(existsSync(path.join(stateDir, 'embedder.json'))).toBe(true);
  }, 240_000);
});
