import { FULL_RUN_MARK, PATH_QUEUE_DIR } from './path-queue.js';
import { INDEX_LOCK_FILE } from './index-lock.js';

/** First line after the shebang of every hook monorag writes; how install/uninstall recognise them. */
export const HOOK_MARKER = '# monorag-hook: enqueues changed paths for re-indexing (monorag hooks install|uninstall)';

/** Suffix of a pre-existing hook that monorag's hook chains to. */
export const CHAINED_SUFFIX = '.pre-monorag';

/**
 * The folder of one work tree's hook scripts, as git names it: `git rev-parse --git-path monorag-hooks`
 * gives `.git/monorag-hooks` in the main work tree and `.git/worktrees/<name>/monorag-hooks` in a linked
 * one, while the hooks directory itself is shared by all of them. The shared hooks run the scripts of
 * the work tree they fire in, so each work tree's commits reach its own index.
 */
export const WORKTREE_HOOKS_DIR = 'monorag-hooks';

/** What a work tree's hook script needs: where the project is, where its index is, and how to start monorag. */
export interface HookScriptOptions {
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

/** Shell lines that run the script `hook` of the work tree the hook fires in, when it has one (same arguments; `$input` on stdin for post-rewrite). */
function runOwnScript(): string {
  return `own="$(git rev-parse --git-path ${WORKTREE_HOOKS_DIR} 2>/dev/null)/$hook"
if [ -x "$own" ]; then
  if [ "$hook" = post-rewrite ]; then printf '%s\\n' "$input" | "$own" "$@"; else "$own" "$@"; fi
fi`;
}

/**
 * The text of the shared hook `name` in the hooks directory: it runs the pre-existing hook it chains
 * (`<name>${'${CHAINED_SUFFIX}'}`, same arguments, same stdin) first, then the script of the work tree it fires
 * in ({@link WORKTREE_HOOKS_DIR}; none there, e.g. a linked work tree nobody installed the hooks in,
 * means nothing to index), and returns the chained hook's status.
 */
export function dispatcherScript(name: string): string {
  return `#!/bin/sh
${HOOK_MARKER}
hook=${name}
chained="$0${CHAINED_SUFFIX}"
status=0
if [ "$hook" = post-rewrite ]; then input=$(cat); else input=; fi
if [ -x "$chained" ]; then
  if [ "$hook" = post-rewrite ]; then printf '%s\\n' "$input" | "$chained" "$@"; else "$chained" "$@"; fi
  status=$?
fi
${runOwnScript()}
exit $status
`;
}

/**
 * The lines monorag adds to a hook of the user's instead of a hook of its own (a husky hook
 * `.husky/<name>`, which husky's shims in `.husky/_` run with \`sh -e\`; a hook of a committed hooks
 * directory such as `.githooks/`): in a subshell, so that no variable of the user's script changes, they
 * run this work tree's script when there is one, and end with status 0 either way (a clone without
 * monorag runs nothing; no path of this machine is in them). The first line is {@link HOOK_MARKER};
 * uninstall removes exactly these lines.
 */
export function hookLines(name: string): string[] {
  const own = `"$(git rev-parse --git-path ${WORKTREE_HOOKS_DIR} 2>/dev/null || true)/${name}"`;
  // stdin (post-rewrite's list of rewritten commits) goes to the script as it came.
  return [HOOK_MARKER, `(own=${own}; if [ -x "$own" ]; then "$own" "$@" || true; fi)`];
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The text of one work tree's hook script (in {@link WORKTREE_HOOKS_DIR}, run by the shared hook after
 * any hook it chains, see {@link dispatcherScript}): it appends the paths that changed between the old and the new HEAD
 * (`git diff -z --no-renames --name-only`, NUL-ended as it writes them: both sides of a rename, and names holding
 * quotes, tabs, backslashes or newlines as they are, which git's default output quotes) to a new queue file in the data directory, and starts `monorag index --from-queue`
 * in the background, detached, unless a live indexer holds the lock (with `preferPathBin`, the `monorag`
 * on PATH when there is one, else `command`), telling it with `--queued` how many paths this hook
 * queued (paths in its queue file, or `full`) and with `--queue-file` which file is its own (in queue
 * mode the run enqueues that file's paths, so its line says what this hook did, not what several hooks
 * firing at once did together). Each run adds one line to `<dataDir>/hooks.log`: the indexer's (hook,
 * paths this hook enqueued, ms), or the hook's own when a running indexer will take its paths.
 * During a rebase only post-rewrite queues (the others would start one run per picked commit); `git am`,
 * which fires no post-rewrite, queues each patch it commits from post-applypatch. It exits 0.
 */
export function hookScript(name: string, { root, dataDir, command, preferPathBin = false }: HookScriptOptions): string {
  const recorded = command.map(shellQuote).join(' ');
  const pick = preferPathBin
    ? `if command -v monorag >/dev/null 2>&1; then set -- monorag; else set -- ${recorded}; fi`
    : `set -- ${recorded}`;
  const args = ['index', root, '--from-queue', '--quiet', '--hook', name].map(shellQuote).join(' ') + ' --queued "$count" --queue-file "$queued"';
  return `#!/bin/sh
${HOOK_MARKER}
hook=${name}
data=${shellQuote(dataDir)}
if [ "$hook" = post-rewrite ]; then input=$(cat); else input=; fi
(
  # Inside a rebase every picked commit fires post-commit (post-applypatch with --apply) and its start a
  # checkout; post-rewrite, at its end, queues all it changed at once: one index run instead of one per commit.
  # git am keeps its state in rebase-apply too (marked by a file named applying, a rebase's by rebasing)
  # and fires no post-rewrite: there post-applypatch queues each patch's commit.
  case "$hook" in
    post-rewrite) ;;
    post-applypatch) [ -e "$(git rev-parse --git-path rebase-apply)/rebasing" ] && exit 0 ;;
    *)
      for state in rebase-merge rebase-apply; do
        [ -d "$(git rev-parse --git-path "$state")" ] && exit 0
      done ;;
  esac
  old=
  case "$hook" in
    post-checkout) [ "$3" = 1 ] && old=$1 ;;
    post-merge) old=$(git rev-parse -q --verify ORIG_HEAD) ;;
    post-commit|post-applypatch) old=$(git rev-parse -q --verify HEAD~1) ;;
    post-rewrite) if [ "$1" = rebase ]; then old=$(git rev-parse -q --verify ORIG_HEAD); else old=$(printf '%s\\n' "$input" | head -n 1 | cut -d ' ' -f 1); fi ;;
  esac
  mkdir -p "$data/${PATH_QUEUE_DIR}" || exit 0
  tmp="$data/${PATH_QUEUE_DIR}/$(date +%s)-$$-$hook.tmp"
  # NUL-ended paths, as git writes them: a file name may hold a newline (see PATH_QUEUE_DIR).
  if [ -n "$old" ] && git cat-file -e "$old^{commit}" 2>/dev/null && git diff -z --no-renames --name-only "$old" HEAD > "$tmp"; then
    count=$(tr -cd '\\000' < "$tmp" | wc -c | tr -d ' '); n="$count path(s)"
  else
    printf '%s\\000' '${FULL_RUN_MARK}' > "$tmp"; count=full; n='a full run'
  fi
  queued="\${tmp%.tmp}.paths"
  mv "$tmp" "$queued"
  pid=$(cat "$data/${INDEX_LOCK_FILE}" 2>/dev/null)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $hook: $n enqueued; the running indexer (pid $pid) will index them" >>"$data/hooks.log"
    exit 0
  fi
  if command -v setsid >/dev/null 2>&1; then detach=setsid; else detach=; fi
  ${pick}
  $detach nohup "$@" ${args} </dev/null >>"$data/hooks.log" 2>&1 &
) >/dev/null 2>&1
exit 0
`;
}

