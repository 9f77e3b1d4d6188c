import { mkdirSync, mkdtempSync, realpathSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@monorag/shared';
import { openSqliteStore, type SqliteStore } from '@monorag/store';
import { checkIndexFileOwner, checkIndexOwner, OWNER_DATA_DIR_KEY, OWNER_ROOT_KEY, recordIndexOwner } from './index-owner.js';
import { createProjectContext, ensureDataDir, type ProjectContext } from './project-context.js';

const IDENTITY = { model: 'owner-test', dim: 4, chunkerVersion: 'v-test' };
const FILE = { path: 'a.ts', contentHash: 'h', size: 1, language: 'typescript', chunkCount: 0, indexedAt: 0 };

const open: SqliteStore[] = [];
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
});

function tempDir(name: string): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), `monorag-owner-${name}-`)));
}

function context(root: string, dataDir?: string): ProjectContext {
  const ctx = createProjectContext({ project: root, argName: '<path>', overrides: { dataDir } });
  ensureDataDir(ctx);
  return ctx;
}

async function storeOf(ctx: ProjectContext): Promise<SqliteStore> {
  const store = await openSqliteStore({ file: ctx.storeFile, identity: IDENTITY });
  open.push(store);
  return store;
}

describe('the project an index belongs to', () => {
  it('an index without the record (built before it existed) is adopted and gets it on its next write, keeping its files', async () => {
    const ctx = context(tempDir('legacy'));
    const legacy = await storeOf(ctx);
    await legacy.writeFile(FILE, [], []);
    await checkIndexOwner(ctx, legacy);
    expect(() => checkIndexFileOwner(ctx)).not.toThrow();
    await recordIndexOwner(ctx, legacy);
    expect(await legacy.getMeta(OWNER_ROOT_KEY)).toBe(ctx.root);
    expect(await legacy.getMeta(OWNER_DATA_DIR_KEY)).toBe(ctx.dataDir);
    expect((await legacy.listFiles()).map((f) => f.path)).toEqual(['a.ts']);
  });

  it('another project with the same data directory is INVALID_ARGUMENT naming both roots, from the store and from the file', async () => {
    const shared = tempDir('shared');
    const first = context(tempDir('first'), shared);
    await recordIndexOwner(first, await storeOf(first));
    const second = context(tempDir('second'), shared);
    const store = await storeOf(second);
    const message = `The index in ${shared} belongs to the project ${first.root}, not to ${second.root}`;
    await expect(checkIndexOwner(second, store)).rejects.toMatchObject({ code: ErrorCode.INVALID_ARGUMENT, message: expect.stringContaining(message) });
    await expect(recordIndexOwner(second, store)).rejects.toMatchObject({ code: ErrorCode.INVALID_ARGUMENT });
    expect(() => checkIndexFileOwner(second)).toThrow(message);
    expect(await store.getMeta(OWNER_ROOT_KEY)).toBe(first.root);
  });

  it('two sibling projects with the same relative "../index" share one directory: refused, although the placement matches', async () => {
    const parent = tempDir('siblings');
    for (const name of ['p1', 'p2']) mkdirSync(path.join(parent, name));
    const p1 = context(path.join(parent, 'p1'), '../index');
    await recordIndexOwner(p1, await storeOf(p1));
    const p2 = context(path.join(parent, 'p2'), '../index');
    await expect(checkIndexOwner(p2, await storeOf(p2))).rejects.toMatchObject({ code: ErrorCode.INVALID_ARGUMENT });
  });

  it('a project moved together with a data directory outside it keeps its index', async () => {
    const parent = tempDir('move');
    mkdirSync(path.join(parent, 'proj'));
    const before = context(path.join(parent, 'proj'), '../proj-index');
    await recordIndexOwner(before, await storeOf(before));
    await open.splice(0)[0]?.close();
    const target = tempDir('moved');
    for (const name of ['proj', 'proj-index']) renameSync(path.join(parent, name), path.join(target, name));
    const after = context(path.join(target, 'proj'), '../proj-index');
    const store = await storeOf(after);
    await recordIndexOwner(after, store);
    expect(await store.getMeta(OWNER_ROOT_KEY)).toBe(after.root);
  });

  it('a subdirectory of the indexed project is told to give the project instead', async () => {
    const shared = tempDir('sub-shared');
    const root = tempDir('outer');
    mkdirSync(path.join(root, 'src'));
    const outer = context(root, shared);
    await recordIndexOwner(outer, await storeOf(outer));
    const sub = context(path.join(root, 'src'), shared);
    await expect(checkIndexOwner(sub, await storeOf(sub))).rejects.toThrow(
      `${sub.root} lies inside ${root}: to use that index, give ${root} as <path> instead (a search's --path src keeps to this directory).`,
    );
  });
});
