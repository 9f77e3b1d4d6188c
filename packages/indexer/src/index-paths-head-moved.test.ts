import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIgnoreFilter } from './ignore-filter.js';
import { indexProject } from './index-project.js';
import { openTestIndex } from './test-index.js';
import { committedRepo, git } from './test-git-repo.js';

/** A repository with a.ts and b.ts committed on main, its whole tree indexed at that commit. */
async function indexedRepo() {
  const root = committedRepo('monorag-head-moved-', { '.gitignore': '.monorag/\n', 'a.ts': 'export const a = 1;', 'b.ts': 'export const b = 1;' });
  const index = await openTestIndex(root);
  await indexProject(index);
  const content = async (rel: string) => (await index.store.chunksOfFile(rel)).map((c) => c.content).join('');
  return { root, index, content, first: git(root, 'rev-parse', 'HEAD').trim() };
}

describe('indexProject with paths after HEAD moved past the indexed commit', () => {
  it('also reads the files that differ between the indexed commit and HEAD, and records HEAD', async () => {
    const { root, index, content, first } = await indexedRepo();
    // A commit elsewhere (another branch), then `reset --hard` to it: HEAD and b.ts move, no hook says so.
    git(root, 'checkout', '-q', '-b', 'other');
    writeFileSync(path.join(root, 'b.ts'), 'export const b = 2;');
    writeFileSync(path.join(root, 'c.ts'), 'export const c = 2;');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'two');
    const second = git(root, 'rev-parse', 'HEAD').trim();
    git(root, 'checkout', '-q', 'main');
    git(root, 'reset', '-q', '--hard', second);
    expect(await index.store.getMeta('indexedCommit')).toBe(first);

    // What a hook's run with no path of its own does (a post-checkout of the same commit).
    const report = await indexProject({ ...index, paths: [] });
    expect(report).toMatchObject({ mode: 'paths', commit: second, added: 1, changed: 1, deleted: 0, unchanged: 0 });
    expect(await index.store.getMeta('indexedCommit')).toBe(second);
    expect(await content('b.ts')).toBe('export const b = 2;');
    expect(await content('c.ts')).toBe('export const c = 2;');
  });

  it('covers the whole tree when the indexed commit is unknown to git, or the index was built outside git', async () => {
    const { root, index, content } = await indexedRepo();
    writeFileSync(path.join(root, 'b.ts'), 'export const b = 3;');
    git(root, 'commit', '-q', '-am', 'edit b');
    const head = git(root, 'rev-parse', 'HEAD').trim();
    await index.store.setMeta('indexedCommit', '0123456789abcdef0123456789abcdef01234567');
    const unknown = await indexProject({ ...index, paths: ['a.ts'] });
    expect(unknown).toMatchObject({ mode: 'full', commit: head, changed: 1, unchanged: 2 });
    expect(await content('b.ts')).toBe('export const b = 3;');
    expect(await index.store.getMeta('indexedCommit')).toBe(head);

    writeFileSync(path.join(root, 'a.ts'), 'export const a = 4;');
    git(root, 'commit', '-q', '-am', 'edit a');
    await index.store.setMeta('indexedCommit', '');
    const outside = await indexProject({ ...index, paths: [] });
    expect(outside).toMatchObject({ mode: 'full', commit: git(root, 'rev-parse', 'HEAD').trim(), changed: 1, unchanged: 2 });
    expect(await content('a.ts')).toBe('export const a = 4;');
  });

  it('re-reads the ignore rules when a changed .gitignore among the differences widens the run', async () => {
    const { root, index } = await indexedRepo();
    const filter = createIgnoreFilter({ root, extraIgnores: ['/.monorag/'] });
    await indexProject({ ...index, filter });
    writeFileSync(path.join(root, '.gitignore'), '.monorag/\nb.ts\n');
    git(root, 'rm', '-q', '--cached', 'b.ts');
    git(root, 'commit', '-q', '-am', 'ignore b');
    const report = await indexProject({ ...index, filter, paths: [] });
    expect(report).toMatchObject({ mode: 'full', deleted: 1 });
    expect((await index.store.listFiles()).map((f) => f.path)).toEqual(['.gitignore', 'a.ts']);
  });

});
