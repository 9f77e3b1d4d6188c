import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIgnoreFilter } from './ignore-filter.js';
import { startProjectWatcher } from './project-watcher.js';

/** inotify watches held by this process (Linux), read from /proc/self/fdinfo. */
function inotifyWatches(): number | undefined {
  if (!existsSync('/proc/self/fdinfo')) return undefined;
  let n = 0;
  for (const fd of readdirSync('/proc/self/fdinfo')) {
    try {
      n += readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8').split('\n').filter((l) => l.startsWith('inotify wd:')).length;
    } catch {
      // The fd was closed between listing and reading.
    }
  }
  return n;
}

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function tree(): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-watch-')));
  writeFileSync(path.join(root, '.gitignore'), 'dist/\n');
  for (const d of ['src', 'src/a', 'src/b', 'docs']) mkdirSync(path.join(root, d), { recursive: true });
  for (let i = 0; i < 20; i++) writeFileSync(path.join(root, 'src/a', `f${i}.ts`), `export const f${i} = ${i};\n`);
  return root;
}

describe('startProjectWatcher', () => {
  it('watches only non-ignored directories, however many ignored ones there are', async () => {
    const root = tree();
    for (let i = 0; i < 1500; i++) mkdirSync(path.join(root, 'node_modules', `pkg${i}`, 'lib'), { recursive: true });
    for (let i = 0; i < 500; i++) mkdirSync(path.join(root, 'dist', `chunk${i}`), { recursive: true });
    const before = inotifyWatches();
    const watcher = startProjectWatcher({ root, filter: createIgnoreFilter({ root }), onPaths: () => {}, onRulesChanged: () => {} });
    await watcher.ready;
    expect(watcher.mode()).toBe('native');
    // root, src, src/a, src/b, docs: 5 directories; the 3,500 ignored ones are never entered.
    expect(watcher.watchedDirectories()).toBe(5);
    const after = inotifyWatches();
    if (before !== undefined && after !== undefined) expect(after - before).toBe(5);
    await watcher.close();
  });

  it('reports edits, new and deleted files and directories by repo-relative path, and rule changes', async () => {
    const root = tree();
    const seen = new Set<string>();
    let rules = 0;
    const watcher = startProjectWatcher({
      root, filter: createIgnoreFilter({ root }), onPaths: (p) => p.forEach((x) => seen.add(x)), onRulesChanged: () => rules++,
    });
    await watcher.ready;
    writeFileSync(path.join(root, 'src/a/f1.ts'), 'export const f1 = 100;\n');
    writeFileSync(path.join(root, 'docs/new.md'), '# new\n');
    rmSync(path.join(root, 'src/b'), { recursive: true });
    writeFileSync(path.join(root, 'dist.txt'), 'not ignored');
    mkdirSync(path.join(root, 'dist'));
    writeFileSync(path.join(root, 'dist/out.js'), 'ignored');
    await until(() => ['src/a/f1.ts', 'docs/new.md', 'src/b', 'dist.txt'].every((p) => seen.has(p)));
    writeFileSync(path.join(root, '.gitignore'), 'dist/\ndocs/\n');
    await until(() => rules > 0);
    expect([...seen].filter((p) => p.startsWith('dist/') || p === 'dist')).toEqual([]);
    await watcher.close();
  });

  it('polls, with a warning, when the tree needs more watches than allowed', async () => {
    const root = tree();
    const warnings: string[] = [];
    const logger = { warn: (_o: unknown, msg: string) => warnings.push(msg) } as never;
    const seen = new Set<string>();
    const watcher = startProjectWatcher({
      root, filter: createIgnoreFilter({ root }), onPaths: (p) => p.forEach((x) => seen.add(x)), onRulesChanged: () => {},
      maxWatches: 2, pollIntervalMs: 100, logger,
    });
    await watcher.ready;
    expect(watcher.mode()).toBe('polling');
    expect(warnings[0]).toMatch(/more than 2 directories to watch.*polling instead/);
    writeFileSync(path.join(root, 'src/a/f2.ts'), 'export const f2 = 200;\n');
    await until(() => seen.has('src/a/f2.ts'));
    await watcher.close();
  });

  for (const usePolling of [false, true]) {
    it(`reports an edit of .git/info/exclude as a rule change, and nothing else in .git (${usePolling ? 'polling' : 'native'})`, async () => {
      const root = tree();
      mkdirSync(path.join(root, '.git', 'info'), { recursive: true });
      mkdirSync(path.join(root, '.git', 'refs'), { recursive: true });
      writeFileSync(path.join(root, '.git', 'info', 'exclude'), '# git ls-files --others --exclude-from=.git/info/exclude\n');
      const seen = new Set<string>();
      let rules = 0;
      const watcher = startProjectWatcher({
        root, filter: createIgnoreFilter({ root }), onPaths: (p) => p.forEach((x) => seen.add(x)), onRulesChanged: () => rules++,
        usePolling, pollIntervalMs: 100,
      });
      await watcher.ready;
      // The rest of .git is never reported (nor, natively, watched: root, src, src/a, src/b, docs, .git, .git/info).
      if (!usePolling) expect(watcher.watchedDirectories()).toBe(7);
      writeFileSync(path.join(root, '.git', 'index'), 'binary index');
      writeFileSync(path.join(root, '.git', 'refs', 'main'), 'abc');
      // A submodule's `.git` is a file pointing at the superproject's .git/modules: not reported either.
      writeFileSync(path.join(root, 'src/a/.git'), 'gitdir: ../../.git/modules/a\n');
      writeFileSync(path.join(root, 'docs/marker.md'), '# marker\n');
      await until(() => seen.has('docs/marker.md'));
      expect(rules).toBe(0);
      writeFileSync(path.join(root, '.git', 'info', 'exclude'), 'docs/\n');
      await until(() => rules > 0);
      expect([...seen].filter((p) => p === '.git' || p.startsWith('.git/') || p.endsWith('/.git'))).toEqual([]);
      await watcher.close();
    });
  }

  it('starts on a project folder deleted meanwhile without throwing (trial: a rule change restarting the watcher after rm -rf killed the process)', async () => {
    const root = tree();
    rmSync(root, { recursive: true, force: true });
    const watcher = startProjectWatcher({ root, filter: createIgnoreFilter({ root }), onPaths: () => {}, onRulesChanged: () => {} });
    await watcher.close();
  });
});
