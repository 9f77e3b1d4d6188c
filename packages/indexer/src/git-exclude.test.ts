import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { setGitExclude, GIT_EXCLUDE_MARKER } from './git-exclude.js';

function gitRoot(exclude?: string): { root: string; read: () => string } {
  const root = mkdtempSync(path.join(tmpdir(), 'monorag-exclude-'));
  mkdirSync(path.join(root, '.git', 'info'), { recursive: true });
  writeFileSync(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  if (exclude !== undefined) writeFileSync(path.join(root, '.git', 'info', 'exclude'), exclude);
  return { root, read: () => readFileSync(path.join(root, '.git', 'info', 'exclude'), 'utf8') };
}

describe('setGitExclude', () => {
  it('appends the pattern once under its marker, keeping existing lines', async () => {
    const { root, read } = gitRoot('# git ls-files --others --exclude-from=.git/info/exclude\n*.swp');
    expect(await setGitExclude(root, '/.monorag/')).toBe(true);
    expect(await setGitExclude(root, '/.monorag/')).toBe(false);
    expect(read()).toBe(`# git ls-files --others --exclude-from=.git/info/exclude\n*.swp\n${GIT_EXCLUDE_MARKER}\n/.monorag/\n`);
  });

  it('replaces the entry of a data directory used before, so its folder is seen again (trial: --data-dir docs once hid docs/ for good)', async () => {
    const { root, read } = gitRoot('*.swp\n');
    expect(await setGitExclude(root, '/docs/')).toBe(true);
    expect(await setGitExclude(root, '/.monorag/')).toBe(true);
    expect(read()).toBe(`*.swp\n${GIT_EXCLUDE_MARKER}\n/.monorag/\n`);
    // A data directory outside the project: no entry of monorag's is left.
    expect(await setGitExclude(root, undefined)).toBe(true);
    expect(read()).toBe('*.swp\n');
  });

  it("keeps the user's own lines and an older monorag's unmarked entry, and does not add that pattern twice", async () => {
    const { root, read } = gitRoot('/.monorag/\n/docs/\n');
    expect(await setGitExclude(root, '/.monorag/')).toBe(false);
    expect(await setGitExclude(root, undefined)).toBe(false);
    expect(read()).toBe('/.monorag/\n/docs/\n');
  });

  it('does nothing outside a git work tree', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'monorag-exclude-'));
    expect(await setGitExclude(root, '/.monorag/')).toBe(false);
  });
});
