import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createIgnoreFilter, type IndexReport } from '@monorag/indexer';
import { openSqliteStore, type SqliteStore } from '@monorag/store';
import { createIndexControl, indexRunSummary, type ServeIndexControl } from './index-control.js';
import { createProjectContext, ensureDataDir, type ProjectContext } from './project-context.js';
import { watchProject, type WatchedProject, type WatchRunner } from './watch-project.js';

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };

/** A run that found nothing to change: the report a full run over an up-to-date index gives. */
function emptyReport(mode: 'full' | 'paths'): IndexReport {
  return {
    files: 1, added: 0, changed: 0, deleted: 0, unchanged: 1, chunksWritten: 0, chunksEmbedded: 0, chunksFromCache: 0, totalChunks: 1,
    skipped: [], commit: null, durationMs: 1, mode, cachePruned: 0, moved: 0, redacted: [], secrets: { files: 0, spans: 0, byRule: {} },
  };
}

/** Resolves once `check` holds (polled every 10 ms, 10 s at most). */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface Served {
  context: ProjectContext;
  store: SqliteStore;
  watched: WatchedProject;
  control: ServeIndexControl;
  /** Full runs started so far. */
  fullRuns: () => number;
  /** Lets the runs held so far (and every later one) finish. */
  release: () => void;
}

describe('the freshness of a watched project (serve, gateway)', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  /**
   * An indexed git repository whose index is up to date (its `indexedAt` and `indexedCommit` as a full run
   * leaves them), watched as `serve` watches it; the runs wait for `release()` and then record themselves as
   * a run over an unchanged tree does.
   */
  async function serveFreshIndex(debounceMs: number, watch = true): Promise<Served> {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-index-control-')));
    cleanup.push(() => rmSync(root, { recursive: true, force: true }));
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root, env: GIT_ENV });
    writeFileSync(path.join(root, 'a.ts'), 'export const a = 1;\n');
    execFileSync('git', ['add', '-A'], { cwd: root, env: GIT_ENV });
    execFileSync('git', ['commit', '-q', '-m', 'init'], { cwd: root, env: GIT_ENV });
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const context = createProjectContext({ project: root, argName: '[path]' });
    ensureDataDir(context);
    const store = await openSqliteStore({ file: context.storeFile, identity: { model: 'fake', dim: 8, chunkerVersion: 't' } });
    cleanup.push(() => store.close());
    await store.setMeta('indexedAt', String(Date.now()));
    await store.setMeta('indexedCommit', head);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let fullRuns = 0;
    const runner: WatchRunner<IndexReport> = {
      filter: createIgnoreFilter({ root, extraIgnores: ['/.monorag/'] }),
      takesHookQueue: false,
      run: async (paths) => {
        if (paths === undefined) fullRuns++;
        await released;
        if (paths === undefined) await store.setMeta('indexedAt', String(Date.now()));
        await store.setMeta('indexedCommit', head);
        return emptyReport(paths === undefined ? 'full' : 'paths');
      },
    };
    const watched = watchProject(context, runner, { debounceMs, watch });
    cleanup.push(() => watched.close());
    cleanup.push(() => release());
    const control = createIndexControl({
      context, store, backlog: { read: async () => null, close: async () => undefined }, watched: async () => watched, current: () => watched, summarise: indexRunSummary,
    });
    return { context, store, watched, control, fullRuns: () => fullRuns, release };
  }

  it('reports the start-up catch-up run of an up-to-date index as an update in progress, not as a changed path', async () => {
    const { watched, control, release } = await serveFreshIndex(100);
    // Right after start (MCP `index_status` after `initialize`): the catch-up run is scheduled, nothing has changed.
    const first = await control.status();
    expect(first.index).toMatchObject({ pendingChanges: 0, unqueuedChanges: 0, indexing: true, stale: true, warning: 'Results may be out of date: an index update is in progress.' });
    release();
    await until(() => watched.scheduler.status().runs === 1, 'the catch-up run');
    const after = await control.status();
    expect(after.index).toMatchObject({ pendingChanges: 0, indexing: false, stale: false, warning: null });
    expect(after.lastRun).toMatchObject({ mode: 'full', added: 0, changed: 0, deleted: 0 });
  });

  it('takes a run in progress when asked, so a run that ends while HEAD is read does not make the answer fresh', async () => {
    // The catch-up run holds the index (as when a search is answered from it before the run deleted files).
    const { watched, control, release } = await serveFreshIndex(0);
    await until(() => watched.scheduler.status().running, 'the catch-up run to start');
    // Asked, then the run ends before the answer is made: before, the watcher's state was read after
    // HEAD (a git process), by which time the run had ended and the answer read fresh.
    const asked = control.readFreshness();
    release();
    await until(() => !watched.scheduler.status().running, 'the catch-up run to end');
    expect(await asked).toMatchObject({ indexing: true, stale: true, warning: 'Results may be out of date: an index update is in progress.' });
    expect(await control.readFreshness()).toMatchObject({ indexing: false, stale: false });
  });

  it('without a watcher (serve --no-watch) names the sync_index tool the clients have, beside `monorag index` (trial: a git hook or the shell only)', async () => {
    const { context, control } = await serveFreshIndex(0, false);
    await new Promise((resolve) => setTimeout(resolve, 20)); // file times are coarse: the save falls clearly after indexedAt
    writeFileSync(path.join(context.root, 'b.ts'), 'export const b = 2;\n');
    expect(await control.readFreshness()).toMatchObject({
      unqueuedChanges: 1,
      stale: true,
      warning: 'Results may be out of date: 1 changed file(s) in the work tree are not queued for indexing (the `sync_index` tool or `monorag index` indexes them now; `monorag hooks install` has git hooks queue them on every commit).',
    });
  });

  it('does not call the index fresh when a copy of the project folder was put in its place and a file saved there (trial: watched by the old folder\'s watcher)', async () => {
    const { context, watched, control, release } = await serveFreshIndex(0);
    release();
    await until(() => watched.scheduler.status().runs === 1, 'the catch-up run');
    await watched.ready;
    expect(await control.readFreshness()).toMatchObject({ stale: false });
    renameSync(context.root, `${context.root}-old`);
    cleanup.push(() => rmSync(`${context.root}-old`, { recursive: true, force: true }));
    cpSync(`${context.root}-old`, context.root, { recursive: true });
    writeFileSync(path.join(context.root, 'b.ts'), 'export const b = 2;\n');
    // Asked at once, before the once-a-second root check: the old folder's watcher never saw b.ts.
    expect(await control.readFreshness()).toMatchObject({ stale: true });
    // Gone altogether: the freshness says so (a trial: only stderr did).
    rmSync(context.root, { recursive: true, force: true });
    const gone = await control.readFreshness();
    expect(gone.stale).toBe(true);
    expect(gone.warning).toMatch(/^Results may be out of date: the project folder is gone \(moved or deleted\): these results come from the index as it was, and nothing is indexed until the folder is back/);
  });

  it('a change of an ignore-rules file is one pending change until the full run it asks for starts', async () => {
    // A long debounce: the runs start when the test syncs.
    const { context, watched, control, release, fullRuns } = await serveFreshIndex(60_000);
    release();
    await watched.scheduler.sync();
    await watched.ready;
    expect((await control.status()).index).toMatchObject({ pendingChanges: 0, indexing: false, stale: false });
    writeFileSync(path.join(context.root, '.gitignore'), 'build/\n');
    await until(() => watched.scheduler.status().pendingFull, 'the full run the .gitignore change asks for');
    expect((await control.status()).index).toMatchObject({
      pendingChanges: 1, indexing: false, stale: true, warning: 'Results may be out of date: 1 changed path(s) are waiting to be indexed.',
    });
    await watched.scheduler.sync();
    expect(fullRuns()).toBe(2);
    expect((await control.status()).index).toMatchObject({ pendingChanges: 0, indexing: false, stale: false });
  });
});
