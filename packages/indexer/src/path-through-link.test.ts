import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pathThroughLink, pathThroughLinkWarning } from './path-through-link.js';

describe('pathThroughLink', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('names the directory link on the way and the real path inside the project; a plain path, a missing one or a link at the end is none', () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-path-link-')));
    const outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-path-link-out-')));
    dirs.push(root, outside);
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src', 'pool.ts'), 'export {};\n');
    writeFileSync(path.join(outside, 'x.ts'), 'export {};\n');
    mkdirSync(path.join(root, 'weird'));
    symlinkSync('..', path.join(root, 'weird', 'loop')); // a loop back to the root, as in the trial
    symlinkSync(outside, path.join(root, 'out'));
    symlinkSync('src/pool.ts', path.join(root, 'pool-link.ts'));

    expect(pathThroughLink(root, 'weird/loop/src/pool.ts')).toEqual({ given: 'weird/loop/src/pool.ts', link: 'weird/loop', real: 'src/pool.ts' });
    expect(pathThroughLink(root, './weird/loop/weird/loop/src/')).toEqual({ given: './weird/loop/weird/loop/src/', link: 'weird/loop', real: 'src' });
    expect(pathThroughLink(root, 'out/x.ts')).toEqual({ given: 'out/x.ts', link: 'out' });
    expect(pathThroughLink(root, 'src/pool.ts')).toBeUndefined();
    expect(pathThroughLink(root, 'pool-link.ts')).toBeUndefined(); // the link itself: the run reports it as a link
    expect(pathThroughLink(root, 'nope/x.ts')).toBeUndefined();

    expect(pathThroughLinkWarning({ given: 'out/x.ts', link: 'out' })).toBe(
      'out/x.ts goes through the symbolic link out, which monorag does not follow (each file is indexed once, under its real path), so it updates nothing; give the path without the link.',
    );
  });
});
