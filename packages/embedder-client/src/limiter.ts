/** Runs async tasks with at most `concurrency` of them in flight; the rest wait in FIFO order. */
export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

/**
 * A FIFO semaphore shared by every caller of one embedder, so parallel `embed` calls together keep
 * at most `concurrency` requests in flight. (p-limit does the same; this package keeps its one
 * runtime dependency, axios.)
 */
export function createLimiter(concurrency: number): Limiter {
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = (): void => {
    const next = waiting.shift();
    if (next) next(); // hand the slot straight to the oldest waiter: `active` stays the same
    else active--;
  };
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await task();
    } finally {
      release();
    }
  };
}
