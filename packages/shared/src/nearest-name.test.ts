import { describe, expect, it } from 'vitest';
import { editDistance, nearestName } from './nearest-name.js';

describe('nearestName', () => {
  it('measures edit distance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('url', 'url')).toBe(0);
  });

  it('suggests a close name, case-insensitively, and nothing for an unrelated one', () => {
    const keys = ['url', 'python', 'idleSeconds', 'batchSize'];
    expect(nearestName('ur', keys)).toBe('url');
    expect(nearestName('batchsize', keys)).toBe('batchSize');
    expect(nearestName('idleSecond', keys)).toBe('idleSeconds');
    expect(nearestName('colour', keys)).toBeUndefined();
  });
});
