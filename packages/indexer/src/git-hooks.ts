import { chmod, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { ErrorCode, MonoragError } from '@monorag/shared';
import { gitPath } from './git-path.js';
import { CHAINED_SUFFIX, HOOK_MARKER, WORKTREE_HOOKS_DIR, dispatcherScript, hookScript, hookLines, type HookScriptOptions } from './hook-scripts.js';

/**
 * The hooks monorag installs: every git operation that moves HEAD or rewrites the work tree
 * (post-applypatch: each patch `git am` commits, which fires none of the others).
 */
export const GIT_HOOK_NAMES = ['post-commit', 'post-merge', 'post-checkout', 'post-rewrite', 'post-applypatch'] as const;

/** Options of {@link installGitHooks}: those of a work tree's hook scripts. */
export type GitHooksOptions = HookScriptOptions;

/**
 * What an install or uninstall did, per hook: `installed`, `updated` (monorag's hook was there),
 * `chained` (a hook of the user's runs first), `removed`, `restored` (the chained hook is back in its
 * place), `absent` (no hook of monorag's), `kept` (uninstall: this work tree's script is removed, the
 * shared hook stays for the other work trees that use it, or for other repositories when the hooks
 * directory lies outside this one), `skipped` (a hook of a committed hooks directory that is no shell
 * script: shell lines would break it; the user adds the call, see {@link worktreeScriptCall}).
 */
export type GitHookOutcome = 'installed' | 'updated' | 'chained' | 'removed' | 'restored' | 'absent' | 'kept' | 'skipped';

/** What an install or uninstall did. */
export interface GitHooksResult {
  /** The hooks directory used (honours `core.hooksPath`). */
  hooksDir: string;
  /** This work tree's hook scripts (`git rev-parse --git-path monorag-hooks`), which the shared hooks run. */
  scriptsDir: string;
  /**
   * Where the shared hooks are: `hooks`, files of the hooks directory; `husky`, two lines in each of
   * husky's `.husky/<name>` files (core.hooksPath is husky's `.husky/_`, whose shims husky rewrites on
   * every install and which find the user's hook by their own file name, so they can be neither replaced
   * nor renamed); `work-tree`, two lines in each hook of a hooks directory inside the work tree (a team's
   * committed `.githooks/`: renaming a tracked hook would break it for everyone once committed, while the
   * two lines hold no path of this machine and do nothing in a clone without monorag's scripts).
   */
  via: 'hooks' | 'husky' | 'work-tree';
  /** Hook name -> what happened. */
  hooks: Record<string, GitHookOutcome>;
  /** Uninstall: the other work trees of the repository whose scripts still use the shared hooks (kept for them); else empty. */
  otherWorkTrees: string[];
  /**
   * The hooks directory is shared beyond this repository (`core.hooksPath` in the global or system git
   * configuration): uninstall keeps its hooks, which other repositories may use and which do nothing in a
   * repository without monorag's scripts.
   */
  sharedBeyondRepository: boolean;
}

/** The hooks directory of a work tree (honours `core.hooksPath`), absolute. */
export async function gitHooksDir(root: string): Promise<string> {
  try {
    return await gitPath(root, 'hooks');
  } catch (error) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `${root} is not a git work tree (git rev-parse failed: ${(error as Error).message.trim()}).`, { cause: error });
  }
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Where monorag adds its lines to hooks instead of putting hooks of its own (see {@link GitHooksResult.via}). */
interface LineHooks {
  via: 'husky' | 'work-tree';
  /** The folder of the hooks that get the lines. */
  dir: string;
}

/**
 * The hooks monorag adds lines to: husky's user hooks when `hooksDir` is husky's (v9: core.hooksPath
 * `.husky/_`, beside its runner `h`), the hooks directory itself when it lies inside the work tree
 * (outside `.git`), else undefined (monorag's own hooks go into the hooks directory).
 */
function lineHooks(root: string, hooksDir: string): LineHooks | undefined {
  if (path.basename(hooksDir) === '_' && existsSync(path.join(hooksDir, 'h'))) return { via: 'husky', dir: path.dirname(hooksDir) };
  const rel = path.relative(root, hooksDir);
  const inside = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) && rel.split(path.sep)[0] !== '.git';
  return inside ? { via: 'work-tree', dir: hooksDir } : undefined;
}

async function writeExecutable(file: string, text: string): Promise<void> {
  const tmp = `${file}.monorag-tmp`;
  await writeFile(tmp, text);
  await chmod(tmp, 0o755);
  await rename(tmp, file);
}

/** `text` without monorag's hook lines (each {@link HOOK_MARKER} line and the one after it). */
function withoutHookLines(text: string): string {
  const lines = text.split('\n');
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === HOOK_MARKER) i++;
    else kept.push(lines[i]!);
  }
  return kept.join('\n');
}

/** Puts the shared hook `name` into the hooks directory, keeping a hook of the user's as `<name>.pre-monorag`, run first. */
async function installDispatcher(file: string, name: string): Promise<GitHookOutcome> {
  const existing = await readText(file);
  let outcome: GitHookOutcome = 'installed';
  if (existing !== undefined && existing.includes(HOOK_MARKER)) outcome = 'updated';
  else if (existing !== undefined) {
    await rename(file, file + CHAINED_SUFFIX);
    outcome = 'chained';
  }
  await writeExecutable(file, dispatcherScript(name));
  return outcome;
}

/** A hook holding nothing of the user's: empty, or a shebang alone. */
function holdsNothing(text: string): boolean {
  return text.split('\n').every((line) => line.trim() === '' || line.startsWith('#!'));
}

/** Interpreters that run monorag's shell lines as written (the shebang's program, or `env`'s argument). */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ash', 'mksh']);

/** Whether a hook's text is a shell script: no shebang (git runs it with sh), or one naming a POSIX shell. */
function isShellScript(text: string): boolean {
  const first = text.split('\n', 1)[0]!;
  if (!first.startsWith('#!')) return true;
  const words = first.slice(2).trim().split(/\s+/);
  const program = path.basename(words[0] ?? '') === 'env' ? words.find((w, i) => i > 0 && !w.startsWith('-')) : words[0];
  return SHELLS.has(path.basename(program ?? ''));
}

/**
 * Adds monorag's lines to the hook `file` after the user's own (before a last `exit` or `exec` line,
 * which would end the hook before them); a hook that is absent is made (`#!/bin/sh`, executable).
 */
async function addHookLines(file: string, name: string, { shellOnly }: { shellOnly: boolean }): Promise<GitHookOutcome> {
  const existing = await readText(file);
  if (shellOnly && existing !== undefined && !existing.includes(HOOK_MARKER) && !isShellScript(existing)) return 'skipped';
  const own = withoutHookLines(existing ?? '#!/bin/sh\n');
  const outcome: GitHookOutcome = existing?.includes(HOOK_MARKER) ? 'updated' : existing === undefined || holdsNothing(existing) ? 'installed' : 'chained';
  // Split as it is (a final newline, blank lines at the end or none), so that removing the lines gives the file back byte for byte.
  const lines = own.split('\n');
  let at = lines.length;
  while (at > 0 && lines[at - 1]!.trim() === '') at--;
  if (at > 0 && /^\s*(exit|exec)\b/.test(lines[at - 1]!)) at--;
  lines.splice(at, 0, ...hookLines(name));
  await writeFile(file, lines.join('\n'));
  if (existing === undefined) await chmod(file, 0o755);
  return outcome;
}

/** Removes the shared hook `file` when it is monorag's, putting back the hook it chained. */
async function removeDispatcher(file: string): Promise<GitHookOutcome> {
  const existing = await readText(file);
  if (existing === undefined || !existing.includes(HOOK_MARKER)) return 'absent';
  if ((await readText(file + CHAINED_SUFFIX)) !== undefined) {
    await rename(file + CHAINED_SUFFIX, file);
    return 'restored';
  }
  await rm(file);
  return 'removed';
}

/**
 * Removes `<file>.pre-monorag` when `file` is not monorag's hook: husky rewrote its shim over the hook an
 * install of an earlier monorag had put there, and the kept copy of the shim is of no use any more.
 */
async function dropStaleChained(file: string): Promise<void> {
  const existing = await readText(file);
  if (existing !== undefined && !existing.includes(HOOK_MARKER)) await rm(file + CHAINED_SUFFIX, { force: true });
}

/** Removes monorag's lines from the hook `file`, and the file when nothing of the user's is left in it. */
async function removeHookLines(file: string): Promise<GitHookOutcome> {
  const existing = await readText(file);
  if (existing === undefined || !existing.includes(HOOK_MARKER)) return 'absent';
  const own = withoutHookLines(existing);
  if (holdsNothing(own)) {
    await rm(file);
    return 'removed';
  }
  await writeFile(file, own);
  return 'restored';
}

/**
 * The roots of the repository's work trees, other than the one whose scripts are `scriptsDir`, that have
 * hook scripts of their own: the main work tree's are `<common dir>/monorag-hooks`, a linked one's
 * `<common dir>/worktrees/<id>/monorag-hooks`, whose root is named by that folder's `gitdir` file.
 */
async function otherWorkTreesWithScripts(root: string, scriptsDir: string): Promise<string[]> {
  const commonDir = await gitCommonDir(root);
  const found: string[] = [];
  const main = path.join(commonDir, WORKTREE_HOOKS_DIR);
  if (main !== scriptsDir && existsSync(main)) found.push(path.dirname(commonDir));
  const linked = path.join(commonDir, 'worktrees');
  for (const id of existsSync(linked) ? await readdir(linked) : []) {
    const dir = path.join(linked, id, WORKTREE_HOOKS_DIR);
    if (dir === scriptsDir || !existsSync(dir)) continue;
    const gitdir = (await readText(path.join(linked, id, 'gitdir')))?.trim();
    found.push(gitdir ? path.dirname(gitdir) : path.join(linked, id));
  }
  return found;
}

/** The git common directory of the work tree at `root`, absolute. */
async function gitCommonDir(root: string): Promise<string> {
  return path.resolve(root, (await simpleGit({ baseDir: root }).raw(['rev-parse', '--git-common-dir'])).trim());
}

/**
 * Whether the hooks directory of `root` is shared beyond its repository: `core.hooksPath` set in the
 * global or system git configuration (one hooks directory for every repository of the user or machine).
 */
async function sharedHooksPath(root: string): Promise<boolean> {
  let out: string;
  try {
    out = await simpleGit({ baseDir: root }).raw(['config', '--show-scope', '--get', 'core.hooksPath']);
  } catch {
    // Not set (git exits 1): the repository's own `.git/hooks`.
    return false;
  }
  return /^(global|system)\t/.test(out);
}

/** The shell command a hook of the user's runs to call this work tree's script `name` (same arguments and stdin), e.g. for a `skipped` hook. */
export function worktreeScriptCall(name: string): string {
  return `"$(git rev-parse --git-path ${WORKTREE_HOOKS_DIR})/${name}" "$@"`;
}

/**
 * Installs monorag's hooks for the work tree `options.root`: its own scripts (queue the changed paths
 * into `options.dataDir`, start an index run; see {@link hookScript}) in its {@link WORKTREE_HOOKS_DIR},
 * and the shared hooks that run the scripts of whichever work tree they fire in: in the hooks directory
 * (a hook of the user's there is kept as `<name>.pre-monorag` and run first; see {@link dispatcherScript}),
 * or, under husky or with a hooks directory inside the work tree, as two lines at the end of each hook
 * there ({@link hookLines}; see {@link GitHooksResult.via}). Running install
 * again rewrites this work tree's scripts (e.g. with a new command) and chains nothing twice; installing
 * in a linked work tree adds its scripts and leaves the other work trees' hooks working.
 * @throws MonoragError `INVALID_ARGUMENT` outside a git work tree, or when both a foreign hook and a
 *   `.pre-monorag` file exist (the message names them); nothing is written then.
 */
export async function installGitHooks(options: GitHooksOptions): Promise<GitHooksResult> {
  const hooksDir = await gitHooksDir(options.root);
  const scriptsDir = await gitPath(options.root, WORKTREE_HOOKS_DIR);
  const lines = lineHooks(options.root, hooksDir);
  if (lines === undefined) {
    for (const name of GIT_HOOK_NAMES) {
      const file = path.join(hooksDir, name);
      const existing = await readText(file);
      if (existing !== undefined && !existing.includes(HOOK_MARKER) && (await readText(file + CHAINED_SUFFIX)) !== undefined) {
        throw new MonoragError(
          ErrorCode.INVALID_ARGUMENT,
          `${file} is not monorag's hook, and ${file}${CHAINED_SUFFIX} already exists; merge them by hand, then run \`monorag hooks install\` again.`,
        );
      }
    }
  }
  await mkdir(scriptsDir, { recursive: true });
  for (const name of GIT_HOOK_NAMES) await writeExecutable(path.join(scriptsDir, name), hookScript(name, options));
  await mkdir(hooksDir, { recursive: true });
  const hooks: GitHooksResult['hooks'] = {};
  for (const name of GIT_HOOK_NAMES) {
    if (lines === undefined) {
      hooks[name] = await installDispatcher(path.join(hooksDir, name), name);
      continue;
    }
    // A hook an earlier monorag put in the hooks directory (renaming husky's shim or a committed hook) goes first.
    await removeDispatcher(path.join(hooksDir, name));
    if (lines.via === 'husky') await dropStaleChained(path.join(hooksDir, name));
    // husky runs its hooks with sh whatever their first line; a committed hook runs by its shebang.
    hooks[name] = await addHookLines(path.join(lines.dir, name), name, { shellOnly: lines.via === 'work-tree' });
  }
  return { hooksDir, scriptsDir, via: lines?.via ?? 'hooks', hooks, otherWorkTrees: [], sharedBeyondRepository: false };
}

/**
 * Removes this work tree's hook scripts, and the shared hooks unless another work tree of the
 * repository still has scripts (`kept`, and `otherWorkTrees` names them): monorag's hooks leave the
 * hooks directory with the hooks they chained put back, monorag's lines leave husky's files (a file
 * holding nothing else is removed). Hooks that are not monorag's are left alone.
 * @throws MonoragError `INVALID_ARGUMENT` outside a git work tree.
 */
export async function uninstallGitHooks({ root }: { root: string }): Promise<GitHooksResult> {
  const hooksDir = await gitHooksDir(root);
  const scriptsDir = await gitPath(root, WORKTREE_HOOKS_DIR);
  const hadScripts = existsSync(scriptsDir);
  await rm(scriptsDir, { recursive: true, force: true });
  const otherWorkTrees = await otherWorkTreesWithScripts(root, scriptsDir);
  const lines = lineHooks(root, hooksDir);
  const sharedBeyondRepository = lines === undefined && (await sharedHooksPath(root));
  const hooks: GitHooksResult['hooks'] = {};
  for (const name of GIT_HOOK_NAMES) {
    if (otherWorkTrees.length > 0 || sharedBeyondRepository) {
      hooks[name] = hadScripts ? 'kept' : 'absent';
      continue;
    }
    // Lines first; a hook of monorag's own left from an install before husky came is removed too.
    const inLines = lines === undefined ? 'absent' : await removeHookLines(path.join(lines.dir, name));
    const inHooksDir = inLines === 'absent' ? await removeDispatcher(path.join(hooksDir, name)) : 'absent';
    if (lines?.via === 'husky') await dropStaleChained(path.join(hooksDir, name));
    hooks[name] = inLines !== 'absent' ? inLines : inHooksDir;
  }
  return { hooksDir, scriptsDir, via: lines?.via ?? 'hooks', hooks, otherWorkTrees, sharedBeyondRepository };
}
