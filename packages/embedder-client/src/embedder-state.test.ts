import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { embedderStatePath, readEmbedderState, removeEmbedderState, writeEmbedderState, type EmbedderState } from './embedder-state.js';

describe('embedder state file', () => {
  const state: EmbedderState = { pid: 123, port: 4567, url: 'http://127.0.0.1:4567', startedAt: 1_700_000_000_000, idleSeconds: 60 };

  it('round-trips and leaves no temporary file behind', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'monorag-state-'));
    expect(await readEmbedderState(dir)).toBeUndefined();
    await writeEmbedderState(dir, state);
    expect(await readEmbedderState(dir)).toEqual(state);
    expect(readdirSync(dir)).toEqual(['embedder.json']);
    await removeEmbedderState(dir);
    await removeEmbedderState(dir);
    expect(await readEmbedderState(dir)).toBeUndefined();
  });

  it('ignores a corrupt or foreign file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'monorag-state-'));
    writeFileSync(embedderStatePath(dir), '{"pid": ');
    expect(await readEmbedderState(dir)).toBeUndefined();
    writeFileSync(embedderStatePath(dir), '{"pid": "x", "port": 1}');
    expect(await readEmbedderState(dir)).toBeUndefined();
  });
});
