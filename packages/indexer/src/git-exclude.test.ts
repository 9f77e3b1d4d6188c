import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { setGitExclude, GIT_EXCLUDE_MARKER } from './git-exclude.js';

// Files whose writes fail with EROFS, as on a read-only mount (which a test cannot make).
const readOnlyFiles = vi.hoisted(() => new Set<string>());
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const writeFile = (async (file: string, ...rest: unknown[]) => {
    if (readOnlyFiles.has(String(file))) throw Object.assign(new Error(`EROFS: read-only file system, open '${file}'`), { code: 'EROFS' });
    return (actual.writeFile as (...args: unknown[]) => Promise<void>)(file, ...rest);
  }) as typeof actual.writeFile;
  return { ...actual, default: { ...actual, writeFile }, writeFile };
});

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

  it('leaves a read-only checkout as it is and says so, instead of failing the command (the team stack mounts the project read-only)', async () => {
    const { root, read } = gitRoot(`*.swp\n${GIT_EXCLUDE_MARKER}\n/.monorag/\n`);
    const file = path.join(root, '.git', 'info', 'exclude');
    readOnlyFiles.add(file);
    const told: [string, string][] = [];
    // The data directory is outside the checkout (/data in the containers): monorag's entry would be dropped.
    expect(await setGitExclude(root, undefined, { onUnwritable: (f, code) => told.push([f, code]) })).toBe(false);
    expect(told).toEqual([[file, 'EROFS']]);
    expect(read()).toBe(`*.swp\n${GIT_EXCLUDE_MARKER}\n/.monorag/\n`);
    readOnlyFiles.delete(file);
  });

  it('does nothing outside a git work tree', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'monorag-exclude-'));
    expect(await setGitExclude(root, '/.monorag/')).toBe(false);
  });
});
