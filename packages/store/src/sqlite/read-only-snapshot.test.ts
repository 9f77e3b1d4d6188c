import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '@monorag/shared';
import { CONTRACT_IDENTITY } from '../contract/chunk-store-contract.js';
import { deterministicVector, testChunk, testFile } from '../contract/fixtures.js';
import { openSqliteStore } from '../sqlite-store.js';
import { isWritableDirectory } from './read-only-snapshot.js';

/**
 * Makes `dir` and the files in it unwritable for this process: mode bits for a normal user, the
 * immutable attribute for root (whom mode bits do not stop). Returns the undo, or undefined when the
 * file system refuses both (e.g. chattr on tmpfs).
 */
function makeReadOnly(dir: string): (() => void) | undefined {
  const entries = [dir, ...readdirSync(dir).map((name) => path.join(dir, name))];
  if (process.getuid?.() === 0) {
    if (spawnSync('chattr', ['+i', ...entries]).status !== 0) return undefined;
    return () => {
      spawnSync('chattr', ['-i', ...entries]);
    };
  }
  for (const entry of entries) chmodSync(entry, entry === dir ? 0o555 : 0o444);
  return () => {
    for (const entry of entries) chmodSync(entry, entry === dir ? 0o755 : 0o644);
  };
}

function snapshotDirs(): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith('monorag-index-'));
}

describe('an index in a read-only directory', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  });

  it('is searched from a private snapshot, with a warning naming both files; closing deletes the snapshot', async (context) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'monorag-ro-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'index.sqlite');
    const writer = await openSqliteStore({ file, identity: CONTRACT_IDENTITY });
    const chunks = [testChunk({ path: 'src/a.ts', startLine: 1, symbol: 'parseHeaders', content: 'function parseHeaders(raw) {}' })];
    await writer.writeFile(testFile('src/a.ts', chunks), chunks, [deterministicVector(1, CONTRACT_IDENTITY.dim)]);
    await writer.close();

    const undo = makeReadOnly(dir);
    if (!undo) {
      context.skip('this file system cannot make a directory read-only for root (chattr refused)');
      return;
    }
    cleanups.push(undo);
    expect(isWritableDirectory(dir)).toBe(false);
    const before = snapshotDirs();

    const warnings: { fields: Record<string, unknown>; message: string }[] = [];
    const logger = { warn: (fields: Record<string, unknown>, message: string) => warnings.push({ fields, message }) } as unknown as Logger;
    const reader = await openSqliteStore({ file, logger });
    expect(reader.file).toBe(file);
    expect(reader.identity).toEqual(CONTRACT_IDENTITY);
    expect(await reader.stats()).toEqual({ files: 1, chunks: 1 });
    const [hit] = await reader.searchLexical('parseHeaders', { limit: 5 });
    expect(hit?.chunk.id).toBe(chunks[0]?.id);

    expect(warnings).toHaveLength(1);
    const snapshot = warnings[0]?.fields.snapshot as string;
    expect(warnings[0]?.fields.index).toBe(file);
    expect(warnings[0]?.message).toContain(`The index's directory ${dir} is read-only`);
    expect(existsSync(snapshot)).toBe(true);
    expect(snapshotDirs()).toHaveLength(before.length + 1);

    await reader.close();
    expect(existsSync(path.dirname(snapshot))).toBe(false);
    expect(snapshotDirs()).toEqual(before);
    expect(readdirSync(dir)).toEqual(['index.sqlite']);
  });

  it('still refuses to be written, naming the index and the read-only files', async (context) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'monorag-ro-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'index.sqlite');
    await (await openSqliteStore({ file, identity: CONTRACT_IDENTITY })).close();
    const undo = makeReadOnly(dir);
    if (!undo) {
      context.skip('this file system cannot make a directory read-only for root (chattr refused)');
      return;
    }
    cleanups.push(undo);
    const before = snapshotDirs();
    await expect(openSqliteStore({ file, identity: CONTRACT_IDENTITY })).rejects.toThrow(`The index ${file} could not be opened`);
    expect(snapshotDirs()).toEqual(before);
  });
});
