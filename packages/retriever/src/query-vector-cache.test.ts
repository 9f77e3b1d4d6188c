import { describe, expect, it } from 'vitest';
import { createQueryVectorCache } from './query-vector-cache.js';

const v = (x: number): Float32Array => new Float32Array([x]);

describe('createQueryVectorCache', () => {
  it('evicts the least recently used entry beyond its capacity', () => {
    const cache = createQueryVectorCache(2);
    cache.set('a', v(1));
    cache.set('b', v(2));
    expect(cache.get('a')).toEqual(v(1));
    cache.set('c', v(3));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toEqual(v(1));
    expect(cache.get('c')).toEqual(v(3));
    expect(cache.size).toBe(2);
  });

  it('keeps nothing with capacity 0', () => {
    const cache = createQueryVectorCache(0);
    cache.set('a', v(1));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
