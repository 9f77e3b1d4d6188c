import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Runs git in `repo` and returns its stdout. */
export function git(repo: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' } });
}

/** Writes `files` (repo-relative path -> text) into `repo`, creating directories. */
export function writeFiles(repo: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    writeFileSync(path.join(repo, rel), text);
  }
}

/** A new git repository in a temp directory with `files` committed on branch main. */
export function makeGitRepo(files: Record<string, string>): string {
  const repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-git-')));
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'config', 'user.email', 'e2e@example.com');
  git(repo, 'config', 'user.name', 'e2e');
  git(repo, 'config', 'commit.gpgsign', 'false');
  writeFiles(repo, files);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'initial');
  return repo;
}

/** A small source file whose only searchable word is `token` (unique per file and version). */
export function tokenFile(token: string): string {
  return `/** Holds ${token}. */\nexport const ${token} = '${token}';\n`;
}
