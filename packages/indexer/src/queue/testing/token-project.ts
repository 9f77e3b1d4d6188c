import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A temporary project written by {@link writeTokenProject}. */
export interface TokenProject {
  /** Absolute real path of the project root. */
  root: string;
  /** The fake GitHub token `src/deploy.ts` holds (secretlint's `github` rule finds it). */
  token: string;
}

/** 36 characters of the GitHub token alphabet, the same on every run. */
const TOKEN_BODY = Array.from({ length: 36 }, (_, i) => 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789'[(i * 7 + 3) % 57]).join('');

/**
 * For tests: a new project under the OS temp directory (not a git repository) with `src/deploy.ts`,
 * whose line 3 holds a fake GitHub token (built at run time, so no source file holds a literal a
 * scanner flags), and `src/plain.ts`, which holds no secret.
 */
export function writeTokenProject(): TokenProject {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-token-project-')));
  const token = ['gh', 'p_', TOKEN_BODY].join('');
  mkdirSync(path.join(root, 'src'));
  writeFileSync(
    path.join(root, 'src', 'deploy.ts'),
    ['/** The deploy client. */', 'export function deployClient(): Client {', `  return new Client({ token: "${token}" });`, '}', ''].join('\n'),
  );
  writeFileSync(path.join(root, 'src', 'plain.ts'), 'export function add(a: number, b: number): number {\n  return a + b;\n}\n');
  return { root, token };
}
