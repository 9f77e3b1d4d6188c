import { describe, expect, it } from 'vitest';
import { matchToken } from './bearer-auth.js';

describe('matchToken', () => {
  const tokens = ['first-token-0123456789', 'second-token-0123456789'];

  it('gives the index of the token presented, undefined for any other string', () => {
    expect(matchToken('first-token-0123456789', tokens)).toBe(0);
    expect(matchToken('second-token-0123456789', tokens)).toBe(1);
    expect(matchToken('first-token-012345678', tokens)).toBeUndefined();
    expect(matchToken('first-token-0123456789x', tokens)).toBeUndefined();
    expect(matchToken('', tokens)).toBeUndefined();
    expect(matchToken('first-token-0123456789', [])).toBeUndefined();
  });
});
