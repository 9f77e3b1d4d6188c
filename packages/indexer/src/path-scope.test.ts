import { describe, expect, it } from 'vitest';
import { inScope, normaliseScope } from './path-scope.js';

describe('normaliseScope', () => {
  it('keeps a backslash in a POSIX file name (it was read as a separator: `src/back\\slash.js` became src/back/slash.js and was never indexed)', () => {
    expect(normaliseScope(['src/back\\slash.js'])).toEqual(process.platform === 'win32' ? ['src/back/slash.js'] : ['src/back\\slash.js']);
    expect(inScope(normaliseScope(['src/back\\slash.js']), 'src/back\\slash.js')).toBe(process.platform !== 'win32');
  });

  it('drops ./, trailing and doubled slashes and duplicates; . is the whole tree; refuses paths that leave the root', () => {
    expect(normaliseScope(['./src//a.ts', 'src/a.ts', 'lib/'])).toEqual(['lib', 'src/a.ts']);
    expect(normaliseScope(['src', '.'])).toEqual(['']);
    expect(() => normaliseScope(['../x'])).toThrow('path "../x" is not repo-relative; give paths relative to the project root.');
  });
});
