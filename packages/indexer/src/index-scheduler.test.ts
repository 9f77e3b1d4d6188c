import { describe, expect, it } from 'vitest';
import { ErrorCode, MonoragError } from '@monorag/shared';
import type { IndexReport } from './index-project.js';
import { createIndexScheduler, defaultMaxWaitMs } from './index-scheduler.js';

function report(): IndexReport {
  return {
    files: 0, added: 0, changed: 0, deleted: 0, unchanged: 0, chunksWritten: 0, chunksEmbedded: 0, chunksFromCache: 0,
    totalChunks: 0, skipped: [], commit: null, durationMs: 0, mode: 'paths', cachePruned: 0, moved: 0,
    redacted: [], secrets: { files: 0, spans: 0, byRule: {} },
  };
}

describe('createIndexScheduler', () => {
  it('coalesces a burst into one run and queues exactly one follow-up for triggers during a run', async () => {
    const runs: Array<string[] | undefined> = [];
    let active = 0;
    let maxActive = 0;
    let release: (() => void) | undefined;
    const scheduler = createIndexScheduler({
      debounceMs: 20,
      run: async (paths) => {
        runs.push(paths);
        active++;
        maxActive = Math.max(maxActive, active);
        if (runs.length === 1) await new Promise<void>((r) => (release = r));
        active--;
        return report();
      },
    });
    for (let i = 0; i < 50; i++) scheduler.enqueue([`f${i % 5}.ts`]);
    while (!release) await new Promise((r) => setTimeout(r, 5));
    for (let i = 0; i < 20; i++) scheduler.enqueue([`g${i % 3}.ts`]);
    const joined = scheduler.sync(['h.ts']);
    await new Promise((r) => setTimeout(r, 60));
    release();
    await joined;
    await scheduler.idle();
    expect(runs).toEqual([
      ['f0.ts', 'f1.ts', 'f2.ts', 'f3.ts', 'f4.ts'],
      ['g0.ts', 'g1.ts', 'g2.ts', 'h.ts'],
    ]);
    expect(maxActive).toBe(1);
  });

  it('refuses a path that leaves the root without queueing it, so later runs are not poisoned', async () => {
    const runs: Array<string[] | undefined> = [];
    const scheduler = createIndexScheduler({ debounceMs: 5, run: async (paths) => (runs.push(paths), report()) });
    expect(() => scheduler.enqueue(['../outside'])).toThrow(/path "..\/outside" is not repo-relative/);
    await expect(scheduler.sync(['/etc/passwd', 'ok.ts'])).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await scheduler.sync(['./src/a.ts', 'src/a.ts']);
    await scheduler.idle();
    expect(runs).toEqual([['src/a.ts']]);
    expect(scheduler.status().lastError).toBeNull();
  });

  it('a full request wins over paths, and a failed run is retried with its paths', async () => {
    const runs: Array<string[] | undefined> = [];
    const scheduler = createIndexScheduler({
      debounceMs: 5,
      retryMs: 10,
      run: async (paths) => {
        runs.push(paths);
        if (runs.length === 1) throw new Error('embedder down');
        return report();
      },
    });
    await expect(scheduler.sync(['a.ts'])).rejects.toThrow('embedder down');
    expect(scheduler.status().lastError).toBe('embedder down');
    scheduler.enqueue();
    await scheduler.idle();
    expect(runs).toEqual([['a.ts'], undefined]);
    expect(scheduler.status()).toMatchObject({ running: false, pendingPaths: 0, pendingFull: false, lastError: null, runs: 2 });
  });

  it('starts a run within the longest wait even while triggers keep coming faster than the debounce', async () => {
    const runs: Array<string[] | undefined> = [];
    const scheduler = createIndexScheduler({ debounceMs: 100, maxWaitMs: 300, run: async (paths) => (runs.push(paths), report()) });
    // A writer that never pauses for 100 ms: without a longest wait the debounce restarts for ever.
    scheduler.enqueue(['edited.ts']);
    let writes = 0;
    while (runs.length === 0 && writes < 500) {
      scheduler.enqueue(['notes.txt']);
      writes++;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(runs[0]).toEqual(['edited.ts', 'notes.txt']);
    await scheduler.close();
  });

  it('interrupts a long run once newer triggers have waited maxWaitMs; the follow-up covers both, and a sync waiter gets its report', async () => {
    const runs: Array<string[] | undefined> = [];
    const seen: string[] = [];
    const scheduler = createIndexScheduler({
      debounceMs: 10,
      maxWaitMs: 80,
      run: async (paths, signal) => {
        runs.push(paths);
        if (runs.length === 1) {
          // A long run that stops at its next safe point once aborted, as indexProject does.
          await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
          throw new MonoragError(ErrorCode.RUN_INTERRUPTED, 'interrupted');
        }
        return { ...report(), added: runs.length };
      },
    });
    scheduler.enqueue(['big.ts']);
    while (runs.length === 0) await new Promise((r) => setTimeout(r, 5));
    const started = Date.now();
    scheduler.enqueue(['small.ts']);
    const joined = scheduler.sync(['other.ts']).then((r) => seen.push(`sync ${r.added}`));
    await scheduler.idle();
    await joined;
    expect(Date.now() - started).toBeLessThan(2000);
    expect(runs).toEqual([['big.ts'], ['big.ts', 'other.ts', 'small.ts']]);
    expect(seen).toEqual(['sync 2']);
    expect(scheduler.status()).toMatchObject({ running: false, pendingPaths: 0, runs: 2, lastError: null });
  });

  it('does not interrupt a run that ends within maxWaitMs', async () => {
    const runs: Array<string[] | undefined> = [];
    const aborted: boolean[] = [];
    const scheduler = createIndexScheduler({
      debounceMs: 10,
      maxWaitMs: 200,
      run: async (paths, signal) => {
        runs.push(paths);
        if (runs.length === 1) await new Promise((r) => setTimeout(r, 50));
        aborted.push(signal.aborted);
        return report();
      },
    });
    scheduler.enqueue(['a.ts']);
    while (runs.length === 0) await new Promise((r) => setTimeout(r, 5));
    scheduler.enqueue(['b.ts']);
    await scheduler.idle();
    expect(runs).toEqual([['a.ts'], ['b.ts']]);
    expect(aborted).toEqual([false, false]);
  });

  it('waits 10 debounces by default, at most 5 s, never less than one debounce', () => {
    expect([50, 100, 500, 2_000, 10_000].map(defaultMaxWaitMs)).toEqual([500, 1_000, 5_000, 5_000, 10_000]);
  });
});
