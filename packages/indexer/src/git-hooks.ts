import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { ErrorCode, MonoragError } from '@monorag/shared';
import { INDEX_LOCK_FILE } from './index-lock.js';
import { FULL_RUN_MARK, PATH_QUEUE_DIR } from './path-queue.js';

/** The hooks monorag installs: every git operation that moves HEAD or rewrites the work tree. */
export const GIT_HOOK_NAMES = ['post-commit', 'post-merge', 'post-checkout', 'post-rewrite'] as const;

/** First line after the shebang of every hook monorag writes; how install/uninstall recognise them. */
export const HOOK_MARKER = '# monorag-hook: enqueues changed paths for re-indexing (monorag hooks install|uninstall)';

/** Suffix of a pre-existing hook that monorag's hook chains to. */
export const CHAINED_SUFFIX = '.pre-monorag';

/** Options of {@link installGitHooks}. */
export interface GitHooksOptions {
  /** Absolute path of the work tree root. */
  root: string;
  /** Absolute data directory (queue and lock live there). */
  dataDir: string;
  /** The command that runs monorag, as argv (e.g. `[node, /path/bin.js]`); `index <root> --from-queue` is appended. */
  command: readonly string[];
  /**
   * At hook run time, start the `monorag` found on PATH (a globally linked install) when there is one,
   * and `command` only when there is none, so that the hooks survive the checkout that installed them
   * moving. Default false: `command` always.
   */
  preferPathBin?: boolean;
}

/** What an install or uninstall did, per hook. */
export interface GitHooksResult {
  /** The hooks directory used (honours `core.hooksPath`). */
  hooksDir: string;
  /** Hook name -> what happened. */
  hooks: Record<string, 'installed' | 'updated' | 'chained' | 'removed' | 'restored' | 'absent'>;
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The text of one hook: it first runs the chained pre-existing hook (same arguments, same stdin), then
 * appends the paths that changed between the old and the new HEAD (`git diff --name-status -M`; both
 * sides of a rename) to a new queue file in the data directory, and starts `monorag index --from-queue`
 * in the background, detached, unless a live indexer holds the lock (with `preferPathBin`, the `monorag`
 * on PATH when there is one, else `command`), telling it with `--queued` how many paths this hook
 * queued (lines of its queue file, or `full`) and with `--queue-file` which file is its own (in queue
 * mode the run enqueues that file's paths, so its line says what this hook did, not what several hooks
 * firing at once did together). Each run adds one line to `<dataDir>/hooks.log`: the indexer's (hook,
 * paths this hook enqueued, ms), or the hook's own when a running indexer will take its paths.
 * It returns the chained hook's status.
 */
export function hookScript(name: string, { root, dataDir, command, preferPathBin = false }: GitHooksOptions): string {
  const recorded = command.map(shellQuote).join(' ');
  const pick = preferPathBin
    ? `if command -v monorag >/dev/null 2>&1; then set -- monorag; else set -- ${recorded}; fi`
    : `set -- ${recorded}`;
  const args = ['index', root, '--from-queue', '--quiet', '--hook', name].map(shellQuote).join(' ') + ' --queued "$count" --queue-file "$queued"';
  return `#!/bin/sh
${HOOK_MARKER}
hook=${name}
data=${shellQuote(dataDir)}
chained="$0${CHAINED_SUFFIX}"
status=0
if [ "$hook" = post-rewrite ]; then input=$(cat); else input=; fi
if [ -x "$chained" ]; then
  if [ "$hook" = post-rewrite ]; then printf '%s\\n' "$input" | "$chained" "$@"; else "$chained" "$@"; fi
  status=$?
fi
(
  old=
  case "$hook" in
    post-checkout) [ "$3" = 1 ] && old=$1 ;;
    post-merge) old=$(git rev-parse -q --verify ORIG_HEAD) ;;
    post-commit) old=$(git rev-parse -q --verify HEAD~1) ;;
    post-rewrite) if [ "$1" = rebase ]; then old=$(git rev-parse -q --verify ORIG_HEAD); else old=$(printf '%s\\n' "$input" | head -n 1 | cut -d ' ' -f 1); fi ;;
  esac
  mkdir -p "$data/${PATH_QUEUE_DIR}" || exit 0
  tmp="$data/${PATH_QUEUE_DIR}/$(date +%s)-$$-$hook.tmp"
  if [ -n "$old" ] && git cat-file -e "$old^{commit}" 2>/dev/null; then
    git -c core.quotePath=false diff --name-status -M "$old" HEAD | cut -f 2- | tr '\\t' '\\n' > "$tmp" || echo '${FULL_RUN_MARK}' > "$tmp"
  else
    echo '${FULL_RUN_MARK}' > "$tmp"
  fi
  queued="\${tmp%.tmp}.paths"
  mv "$tmp" "$queued"
  if grep -qxF '${FULL_RUN_MARK}' "$queued"; then count=full; n='a full run'; else count=$(grep -c . "$queued"); n="$count path(s)"; fi
  pid=$(cat "$data/${INDEX_LOCK_FILE}" 2>/dev/null)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $hook: $n enqueued; the running indexer (pid $pid) will index them" >>"$data/hooks.log"
    exit 0
  fi
  if command -v setsid >/dev/null 2>&1; then detach=setsid; else detach=; fi
  ${pick}
  $detach nohup "$@" ${args} </dev/null >>"$data/hooks.log" 2>&1 &
) >/dev/null 2>&1
exit $status
`;
}

/** The hooks directory of a work tree (honours `core.hooksPath`), absolute. */
export async function gitHooksDir(root: string): Promise<string> {
  let out: string;
  try {
    out = (await simpleGit({ baseDir: root }).raw(['rev-parse', '--git-path', 'hooks'])).trim();
  } catch (error) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `${root} is not a git work tree (git rev-parse failed: ${(error as Error).message.trim()}).`, { cause: error });
  }
  return path.resolve(root, out);
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Writes monorag's hooks into the hooks directory. An existing hook that is not monorag's is kept as
 * `<name>.pre-monorag` and run first by monorag's hook; running install again rewrites monorag's hooks
 * (e.g. with a new command) and chains nothing twice.
 * @throws MonoragError `INVALID_ARGUMENT` outside a git work tree, or when both a foreign hook and a
 *   `.pre-monorag` file exist (the message names them).
 */
export async function installGitHooks(options: GitHooksOptions): Promise<GitHooksResult> {
  const hooksDir = await gitHooksDir(options.root);
  await mkdir(hooksDir, { recursive: true });
  const hooks: GitHooksResult['hooks'] = {};
  for (const name of GIT_HOOK_NAMES) {
    const file = path.join(hooksDir, name);
    const existing = await readText(file);
    let outcome: GitHooksResult['hooks'][string] = 'installed';
    if (existing !== undefined && existing.includes(HOOK_MARKER)) outcome = 'updated';
    else if (existing !== undefined) {
      if ((await readText(file + CHAINED_SUFFIX)) !== undefined) {
        throw new MonoragError(
          ErrorCode.INVALID_ARGUMENT,
          `${file} is not monorag's hook, and ${file}${CHAINED_SUFFIX} already exists; merge them by hand, then run \`monorag hooks install\` again.`,
        );
      }
      await rename(file, file + CHAINED_SUFFIX);
      outcome = 'chained';
    }
    const tmp = `${file}.monorag-tmp`;
    await writeFile(tmp, hookScript(name, options));
    await chmod(tmp, 0o755);
    await rename(tmp, file);
    hooks[name] = outcome;
  }
  return { hooksDir, hooks };
}

/** Removes monorag's hooks and puts chained hooks back; leaves hooks that are not monorag's alone. */
export async function uninstallGitHooks({ root }: { root: string }): Promise<GitHooksResult> {
  const hooksDir = await gitHooksDir(root);
  const hooks: GitHooksResult['hooks'] = {};
  for (const name of GIT_HOOK_NAMES) {
    const file = path.join(hooksDir, name);
    const existing = await readText(file);
    if (existing === undefined || !existing.includes(HOOK_MARKER)) {
      hooks[name] = 'absent';
      continue;
    }
    if ((await readText(file + CHAINED_SUFFIX)) !== undefined) {
      await rename(file + CHAINED_SUFFIX, file);
      hooks[name] = 'restored';
    } else {
      await rm(file);
      hooks[name] = 'removed';
    }
  }
  return { hooksDir, hooks };
}
