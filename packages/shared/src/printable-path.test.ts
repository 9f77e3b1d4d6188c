import { describe, expect, it } from 'vitest';
import { printablePath } from './printable-path.js';

describe('printablePath', () => {
  it('leaves an ordinary path alone and quotes one with control characters, escaped', () => {
    expect(printablePath('src/a b.ts')).toBe('src/a b.ts');
    expect(printablePath('odd\nname.ts')).toBe('"odd\\nname.ts"');
    expect(printablePath('a\rb.ts')).toBe('"a\\rb.ts"');
  });
});
