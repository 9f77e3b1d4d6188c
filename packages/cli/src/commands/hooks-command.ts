import path from 'node:path';
import { installGitHooks, uninstallGitHooks, worktreeScriptCall, type GitHooksResult } from '@monorag/indexer';
import { existsSync } from 'node:fs';
import { STORE_FILE_NAME, createProjectContext, ensureDataDir } from '../project-context.js';

/** Options of `monorag hooks install|uninstall`. */
export interface HooksCommandOptions {
  dataDir?: string;
  /**
   * The command the hooks run to start monorag. Default: the `monorag` on PATH at hook run time when
   * there is one (a global install survives this checkout moving), else this very process's node, flags and script.
   */
  command?: string;
}

/**
 * The argv that starts this CLI again: node, its flags (e.g. tsx's loader when run from source) and
 * the entry script.
 */
function selfCommand(): string[] {
  return [process.execPath, ...process.execArgv, process.argv[1]!];
}

function print(result: GitHooksResult): void {
  process.stdout.write(
    result.via === 'husky'
      ? `Hooks: lines in husky's ${path.dirname(result.hooksDir)}/<hook> files (core.hooksPath ${result.hooksDir}, husky's own, left as it is)\n`
      : result.via === 'work-tree'
        ? `Hooks: lines in ${result.hooksDir}/<hook> (a hooks directory inside the work tree: the lines hold no path of this machine and do nothing in a clone without monorag's hooks, so committing them is safe)\n`
        : `Hooks directory: ${result.hooksDir}\n`,
  );
  process.stdout.write(`Scripts of this work tree: ${result.scriptsDir}\n`);
  for (const [name, outcome] of Object.entries(result.hooks)) process.stdout.write(`  ${name}: ${outcome}\n`);
  for (const [name, outcome] of Object.entries(result.hooks)) {
    if (outcome !== 'skipped') continue;
    process.stdout.write(
      `  note: ${path.join(result.hooksDir, name)} is no shell script, so monorag added nothing to it (shell lines would break it for everyone); ` +
        `have it run \`${worktreeScriptCall(name)}\` (same arguments and stdin) to keep the index fresh after ${name}.\n`,
    );
  }
  if (result.sharedBeyondRepository) {
    process.stdout.write(
      `The hooks in ${result.hooksDir}, outside this repository (a global core.hooksPath?), stay for other repositories that may use them; ` +
        "they do nothing in a repository where `monorag hooks install` was not run.\n",
    );
  }
  if (result.otherWorkTrees.length > 0) {
    process.stdout.write(`The shared hooks stay for the other work trees that use them: ${result.otherWorkTrees.join(', ')}\n`);
  }
}

/** `monorag hooks install [path]`: git hooks that queue changed paths and index them in the background. */
export async function runHooksInstallCommand(project: string | undefined, options: HooksCommandOptions): Promise<GitHooksResult> {
  const context = createProjectContext({ project, argName: '[path]', overrides: { dataDir: options.dataDir } });
  ensureDataDir(context);
  const command = options.command ? options.command.split(' ').filter(Boolean) : selfCommand();
  // An explicit --command is what the user wants run; the default prefers an installed monorag.
  const result = await installGitHooks({ root: context.root, dataDir: context.dataDir, command, preferPathBin: !options.command });
  print(result);
  // The hooks index what a commit changed: without an index, the first commit would build one of its files alone.
  if (context.config.store.kind === 'sqlite' && !existsSync(path.join(context.dataDir, STORE_FILE_NAME))) {
    process.stderr.write(`monorag: note: ${context.root} has no index yet, and the hooks only keep one up to date; build it with \`monorag index ${context.root}\`.
`);
  }
  return result;
}

/** `monorag hooks uninstall [path]`: removes monorag's hooks and restores the hooks they chained to. */
export async function runHooksUninstallCommand(project: string | undefined, options: HooksCommandOptions): Promise<GitHooksResult> {
  const context = createProjectContext({ project, argName: '[path]', overrides: { dataDir: options.dataDir } });
  const result = await uninstallGitHooks({ root: context.root });
  print(result);
  return result;
}
