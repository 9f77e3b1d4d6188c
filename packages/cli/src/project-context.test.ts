import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveProjectRoot } from './project-context.js';

describe('resolveProjectRoot', () => {
  it('names the argument and asks for the project directory, for index and search alike', () => {
    const missing = path.join(mkdtempSync(path.join(tmpdir(), 'monorag-root-')), 'nope');
    expect(() => resolveProjectRoot(missing, '--project')).toThrow(`--project: ${missing} does not exist. Give the path of the project's directory.`);
    const file = path.join(path.dirname(missing), 'a.txt');
    writeFileSync(file, 'x');
    expect(() => resolveProjectRoot(file, '<path>')).toThrow(`<path>: ${file} is a file; give the project's directory.`);
  });
});
