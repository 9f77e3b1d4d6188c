import { describe, expect, it } from 'vitest';
import { checkBindSafety, isLoopbackHost } from './bind-safety.js';

describe('bind safety', () => {
  it('knows loopback addresses and names', () => {
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', 'LOCALHOST'].map(isLoopbackHost)).toEqual([true, true, true, true, true, true]);
    expect(['0.0.0.0', '::', '192.168.1.5', 'example.com', '128.0.0.1'].map(isLoopbackHost)).toEqual([false, false, false, false, false]);
  });

  it('refuses a non-loopback host without tokens unless insecure, then warns', () => {
    expect(checkBindSafety({ host: '127.0.0.1', tokens: [], insecure: false })).toBeUndefined();
    expect(checkBindSafety({ host: '0.0.0.0', tokens: ['a-token-of-16-chars'], insecure: false })).toBeUndefined();
    expect(() => checkBindSafety({ host: '0.0.0.0', tokens: [], insecure: false })).toThrowError(/^--host 0\.0\.0\.0: 0\.0\.0\.0 is not a loopback address and no gateway token is configured/);
    expect(() => checkBindSafety({ host: '0.0.0.0', tokens: [], insecure: false, hostSetting: 'MONORAG_GATEWAY_HOST=0.0.0.0' })).toThrowError(
      /^MONORAG_GATEWAY_HOST=0\.0\.0\.0: 0\.0\.0\.0 is not a loopback address/,
    );
    expect(checkBindSafety({ host: '0.0.0.0', tokens: [], insecure: true })).toBe(
      'the gateway listens on 0.0.0.0 without a token: anyone who can reach this port can search and read the project.',
    );
  });
});
