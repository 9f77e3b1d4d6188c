import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Runs git in `root` (tests only); returns its stdout as written, final newline included. */
export function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8' });
}

/**
 * A git repository in a new temp dir (its real path, named `prefix` + random) with `files` (repo-relative
 * path -> text) committed on `main` as "one", by a local test identity.
 */
export function committedRepo(prefix: string, files: Readonly<Record<string, string>> = { 'a.ts': 'a', 'b.ts': 'b' }): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.email', 't@example.com');
  git(root, 'config', 'user.name', 't');
  for (const [rel, text] of Object.entries(files)) writeFileSync(path.join(root, rel), text);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'one');
  return root;
}

/**
 * From `main`: a branch `side` with one commit per file of `sideFiles` (each holding its name), then one
 * commit of m.ts on `main`, so `side` must be rebased onto it; leaves `side` checked out.
 */
export function sideBranchBehindMain(root: string, sideFiles: readonly string[]): void {
  git(root, 'checkout', '-q', '-b', 'side');
  for (const file of sideFiles) {
    writeFileSync(path.join(root, file), file);
    git(root, 'add', file);
    git(root, 'commit', '-q', '-m', file);
  }
  git(root, 'checkout', '-q', 'main');
  writeFileSync(path.join(root, 'm.ts'), 'm');
  git(root, 'add', 'm.ts');
  git(root, 'commit', '-q', '-m', 'm');
  git(root, 'checkout', '-q', 'side');
}
