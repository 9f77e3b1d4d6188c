import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { createLimiter } from './limiter.js';

it('keeps at most `concurrency` tasks in flight, starts them in order, and passes results and errors through', async () => {
  const limit = createLimiter(2);
  let active = 0;
  let peak = 0;
  const started: number[] = [];
  const task = (i: number) => async (): Promise<number> => {
    started.push(i);
    active++;
    peak = Math.max(peak, active);
    await sleep(5);
    active--;
    if (i === 3) throw new Error('task 3 failed');
    return i * 10;
  };
  const results = await Promise.allSettled([0, 1, 2, 3, 4, 5].map((i) => limit(task(i))));
  expect(peak).toBe(2);
  expect(started).toEqual([0, 1, 2, 3, 4, 5]);
  expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
    0, 10, 20, 'task 3 failed', 40, 50,
  ]);
  // The slots were all given back.
  expect(await Promise.all([limit(async () => 'a'), limit(async () => 'b'), limit(async () => 'c')])).toEqual(['a', 'b', 'c']);
});
