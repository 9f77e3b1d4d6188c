import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { unknownPaths } from './unknown-paths.js';

describe('unknownPaths', () => {
  it('returns, as given, the entries that name no file or directory and nothing in the index', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'monorag-unknown-'));
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src', 'a.ts'), 'export {};\n');
    const indexed = [{ path: 'src/a.ts' }, { path: 'gone/old.ts' }];
    expect(unknownPaths(root, ['src/a.ts', './src/', 'gone', 'gone/old.ts', '', 'nope/', 'src/b.ts', 'gon'], indexed)).toEqual(['nope/', 'src/b.ts', 'gon']);
  });
});
