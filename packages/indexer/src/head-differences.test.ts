import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { headDifferences, readHeadDifferences, recordHeadDifferences } from './head-differences.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function write(root: string, rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8' });
}

/** A store's meta, in memory. */
function metaStore(): { getMeta(key: string): Promise<string | undefined>; setMeta(key: string, value: string): Promise<void> } {
  const meta = new Map<string, string>();
  return { getMeta: async (key) => meta.get(key), setMeta: async (key, value) => void meta.set(key, value) };
}

describe('headDifferences', () => {
  it('lists tracked paths that differ from HEAD (edited, staged, deleted), within a literal scope when given; null before the first commit or outside git', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-head-diff-')));
    roots.push(root);
    expect(await headDifferences(root)).toBeNull();
    git(root, 'init', '-q', '-b', 'main');
    git(root, 'config', 'user.email', 't@example.com');
    git(root, 'config', 'user.name', 't');
    for (const rel of ['a.js', 'dir/b.js', 'dir/c.js', 'x*.js', 'xy.js']) write(root, rel, `// ${rel}\n`);
    expect(await headDifferences(root)).toBeNull();
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'one');
    expect(await headDifferences(root)).toEqual(new Set());
    write(root, 'a.js', '// edited\n');
    write(root, 'dir/b.js', '// staged\n');
    git(root, 'add', 'dir/b.js');
    rmSync(path.join(root, 'dir/c.js'));
    write(root, 'x*.js', '// edited\n');
    write(root, 'xy.js', '// edited\n');
    write(root, 'new.js', '// untracked: not a difference from HEAD\n');
    expect(await headDifferences(root)).toEqual(new Set(['a.js', 'dir/b.js', 'dir/c.js', 'x*.js', 'xy.js']));
    expect(await headDifferences(root, ['dir'])).toEqual(new Set(['dir/b.js', 'dir/c.js']));
    // Literal: `x*.js` names one file, not a glob matching xy.js.
    expect(await headDifferences(root, ['x*.js', 'new.js'])).toEqual(new Set(['x*.js']));
  });

  it('records a run\'s differences with its commit: a whole-tree run replaces them, a scoped run replaces those inside its scope', async () => {
    const store = metaStore();
    expect(await readHeadDifferences(store)).toBeNull();
    await recordHeadDifferences(store, 'c1', new Set(['src/b.ts', 'src/a.ts', 'docs/x.md']), undefined);
    expect(await readHeadDifferences(store)).toEqual({ commit: 'c1', paths: ['docs/x.md', 'src/a.ts', 'src/b.ts'] });
    // A save of src/a.ts (now back at HEAD's version) and of src/c.ts (edited).
    await recordHeadDifferences(store, 'c1', new Set(['src/c.ts']), ['src/a.ts', 'src/c.ts']);
    expect(await readHeadDifferences(store)).toEqual({ commit: 'c1', paths: ['docs/x.md', 'src/b.ts', 'src/c.ts'] });
    // At another commit the old paths say nothing: only the scope's are kept.
    await recordHeadDifferences(store, 'c2', new Set(['src/d.ts']), ['src']);
    expect(await readHeadDifferences(store)).toEqual({ commit: 'c2', paths: ['src/d.ts'] });
    await recordHeadDifferences(store, null, null, undefined);
    expect(await readHeadDifferences(store)).toBeNull();
    await store.setMeta('headDifferences', '{not json');
    expect(await readHeadDifferences(store)).toBeNull();
  });
});
