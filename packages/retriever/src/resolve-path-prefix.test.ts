import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolvePathPrefix } from './resolve-path-prefix.js';

function project(): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-prefix-')));
  mkdirSync(path.join(root, 'src', 'lib'), { recursive: true });
  return root;
}

describe('resolvePathPrefix', () => {
  it('keeps repo-relative prefixes, and makes an absolute path inside the project repo-relative', () => {
    const root = project();
    expect(resolvePathPrefix(root, 'src/')).toBe('src/');
    expect(resolvePathPrefix(root, './src/lib')).toBe('src/lib');
    expect(resolvePathPrefix(root, 'src/li')).toBe('src/li');
    expect(resolvePathPrefix(root, path.join(root, 'src'))).toBe('src');
    expect(resolvePathPrefix(root, `${path.join(root, 'src', 'lib')}/`)).toBe('src/lib/');
    expect(resolvePathPrefix(root, path.join(root, 'src', 'not-yet'))).toBe('src/not-yet');
    expect(resolvePathPrefix(root, root)).toBeUndefined();
    expect(resolvePathPrefix(root, '.')).toBeUndefined();
  });

  it('follows a symbolic link to the project for an absolute path', () => {
    const root = project();
    const link = path.join(realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-prefix-link-'))), 'proj');
    symlinkSync(root, link);
    expect(resolvePathPrefix(root, path.join(link, 'src', 'lib'))).toBe('src/lib');
  });

  it('refuses a path outside the project, naming the argument and the path', () => {
    const root = project();
    expect(() => resolvePathPrefix(root, '/etc', '--path')).toThrowError(`--path: /etc is outside the project ${root}; give a path inside it`);
    expect(() => resolvePathPrefix(root, `${root}-other/src`, '--path')).toThrow(expect.objectContaining({ code: 'PATH_OUTSIDE_PROJECT' }));
    expect(() => resolvePathPrefix(root, '../elsewhere', '--path')).toThrowError(/^--path: \.\.\/elsewhere is outside the project/);
  });

  it('refuses a path longer than any file system allows as a bad argument, naming it (a trial got a store failure at 130,000 characters)', () => {
    const root = project();
    expect(() => resolvePathPrefix(root, 'p'.repeat(130_000), 'path')).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'path: the path is 130000 bytes long; no file system path is longer than 4096 bytes. Give a file or directory inside the project.' }),
    );
    expect(() => resolvePathPrefix(root, 'é'.repeat(2049), '--path')).toThrowError(/^--path: the path is 4098 bytes long/);
    expect(resolvePathPrefix(root, `src/${'a'.repeat(4092)}`)).toBe(`src/${'a'.repeat(4092)}`);
  });
});

describe('resolvePathPrefix and Unicode forms', () => {
  it('spells a prefix as the disk does when the name is there only in the other form (NFC vs NFD)', () => {
    const root = project();
    const nfd = 'café'.normalize('NFD');
    const nfc = 'résumé'.normalize('NFC');
    mkdirSync(path.join(root, 'docs', nfd, nfc), { recursive: true });
    expect(resolvePathPrefix(root, `docs/${'café'.normalize('NFC')}/`)).toBe(`docs/${nfd}/`);
    expect(resolvePathPrefix(root, `docs/${'café'.normalize('NFC')}/${'résumé'.normalize('NFD')}`)).toBe(`docs/${nfd}/${nfc}`);
    expect(resolvePathPrefix(root, path.join(root, 'docs', 'café'.normalize('NFC')))).toBe(`docs/${nfd}`);
    // The start of a name, in the form the disk's entry is not written in.
    mkdirSync(path.join(root, 'docs', 'crème-brûlée'.normalize('NFD')));
    expect(resolvePathPrefix(root, `docs/${'crèm'.normalize('NFC')}`)).toBe(`docs/${'crèm'.normalize('NFD')}`);
    expect(resolvePathPrefix(root, `docs/${nfd}/${'rés'.normalize('NFD')}`)).toBe(`docs/${nfd}/${'rés'.normalize('NFC')}`);
    // Not on disk in any form: kept as given.
    expect(resolvePathPrefix(root, `docs/${'naïve'.normalize('NFC')}`)).toBe(`docs/${'naïve'.normalize('NFC')}`);
  });
});
