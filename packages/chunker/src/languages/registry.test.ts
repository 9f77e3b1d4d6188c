import { describe, expect, it } from 'vitest';
import { LANGUAGES, findLanguage, languageById, languageOf, shebangInterpreter } from './registry.js';

describe('languageOf', () => {
  it('maps extensions case-insensitively', () => {
    expect(languageOf('src/a.ts', '')).toBe('typescript');
    expect(languageOf('src/a.MTS', '')).toBe('typescript');
    expect(languageOf('src/a.cts', '')).toBe('typescript');
    expect(languageOf('src/App.tsx', '')).toBe('tsx');
    expect(languageOf('lib/x.jsx', '')).toBe('javascript');
    expect(languageOf('lib/x.cjs', '')).toBe('javascript');
    expect(languageOf('lib/x.mjs', '')).toBe('javascript');
    expect(languageOf('pkg/mod.pyi', '')).toBe('python');
    expect(languageOf('README.MD', '')).toBe('markdown');
    expect(languageOf('docs/page.mdx', '')).toBe('markdown');
    expect(languageOf('run.sh', '')).toBe('bash');
    expect(languageOf('notebooks/Analysis.IPYNB', '{}')).toBe('jupyter');
  });

  it('falls back to the shebang, then text', () => {
    expect(languageOf('bin/cli', '#!/usr/bin/env node\nrequire("x");')).toBe('javascript');
    expect(languageOf('bin/tool', '#!/usr/bin/env python3\nprint(1)')).toBe('python');
    expect(languageOf('bin/tool', '#!/usr/bin/python3.11\n')).toBe('python');
    expect(languageOf('bin/setup', '#!/bin/bash\necho hi')).toBe('bash');
    expect(languageOf('bin/x', '#!/usr/bin/env -S node --no-warnings\n')).toBe('javascript');
    expect(languageOf('LICENSE', 'MIT License')).toBe('text');
    expect(languageOf('bin/unknown', '#!/usr/bin/env frobnicate\n')).toBe('text');
  });

  it('recognises special file names', () => {
    expect(languageOf('Dockerfile', 'FROM node')).toBe('dockerfile');
    expect(languageOf('sub/Makefile', 'all:')).toBe('makefile');
  });

  it('exposes the registry as data', () => {
    expect(shebangInterpreter('#!/usr/bin/env node\n')).toBe('node');
    expect(shebangInterpreter('no shebang')).toBe(null);
    expect(languageById('python').syntax?.grammar).toBe('tree-sitter-python.wasm');
    expect(languageById('nope').id).toBe('text');
    expect(findLanguage('a.ts', '').strategy).toBe('syntax');
    const ids = LANGUAGES.map((spec) => spec.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
