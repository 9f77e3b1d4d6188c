import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { invocationDir } from '@monorag/shared';
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

describe('invocationDir', () => {
  const own = { npm_lifecycle_event: 'monorag', npm_package_name: 'monorag-workspace' };

  it("is the directory `pnpm monorag` was typed in (INIT_CWD), not the checkout pnpm runs the script from", () => {
    expect(invocationDir({ ...own, INIT_CWD: '/home/me/project' }, '/opt/monorag')).toBe('/home/me/project');
    expect(invocationDir({ ...own }, '/opt/monorag')).toBe('/opt/monorag');
  });

  it("keeps the working directory for anything else: a user's own package script, or no package manager", () => {
    expect(invocationDir({ npm_lifecycle_event: 'index', npm_package_name: 'my-app', INIT_CWD: '/home/me/app/src' }, '/home/me/app')).toBe('/home/me/app');
    expect(invocationDir({ npm_lifecycle_event: 'monorag', npm_package_name: 'my-app', INIT_CWD: '/home/me/app/src' }, '/home/me/app')).toBe('/home/me/app');
    expect(invocationDir({}, '/somewhere')).toBe('/somewhere');
  });

  it('gives resolveProjectRoot its default project and the base of relative paths', () => {
    const typedIn = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-typed-')));
    mkdirSync(path.join(typedIn, 'app'));
    const base = invocationDir({ ...own, INIT_CWD: typedIn }, '/opt/monorag');
    expect(resolveProjectRoot(undefined, '<path>', base)).toBe(typedIn);
    expect(resolveProjectRoot('app', '<path>', base)).toBe(path.join(typedIn, 'app'));
  });
});
