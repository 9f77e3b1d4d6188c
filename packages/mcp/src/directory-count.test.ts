import { describe, expect, it } from 'vitest';
import { directoryCount } from './directory-count.js';

describe('directoryCount', () => {
  it('says 1 directory, not 1 directories (trial), and counts others in the plural', () => {
    expect([0, 1, 2, 16].map(directoryCount)).toEqual(['0 directories', '1 directory', '2 directories', '16 directories']);
  });
});
