import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { drainedQueued, hookEnqueueLine, parseHookQueued, queueRunLine } from './queue-run-line.js';

describe("the hooks' log line of a --from-queue run", () => {
  it('parses --queued as a path count or `full`, and refuses anything else', () => {
    expect(parseHookQueued('0')).toBe(0);
    expect(parseHookQueued('12')).toBe(12);
    expect(parseHookQueued('full')).toBe('full');
    for (const bad of ['', '-1', '1.5', 'all']) expect(() => parseHookQueued(bad)).toThrow(InvalidArgumentError);
  });

  it('says what was enqueued and how it ended', () => {
    expect(queueRunLine('post-commit', 2, 'indexed in 40 ms')).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z post-commit: 2 path\(s\) enqueued, indexed in 40 ms\n$/);
    expect(queueRunLine('post-merge', 'full', 'indexed in 9 ms')).toMatch(/ post-merge: a full run enqueued, indexed in 9 ms\n$/);
    expect(queueRunLine('post-commit', drainedQueued({ full: false, paths: ['a', 'b', 'c'] }), 'indexed in 5 ms', true)).toMatch(
      / post-commit: 3 more path\(s\) enqueued meanwhile, indexed in 5 ms\n$/,
    );
  });

  it('in queue mode says what the hook queued, then what its own run did', () => {
    expect(hookEnqueueLine('post-checkout', 0, 'put 0 file job(s) on q for the workers in 9 ms')).toMatch(
      /^\d{4}-\d\d-\d\dT[\d:.]+Z post-checkout: queued 0 path\(s\); put 0 file job\(s\) on q for the workers in 9 ms\n$/,
    );
    expect(hookEnqueueLine('post-merge', 'full', 'another run had already put them on the queue')).toMatch(
      / post-merge: asked for a full run; another run had already put them on the queue\n$/,
    );
  });
});
