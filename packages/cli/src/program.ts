import { Command } from 'commander';
import { RANKING_STAGES } from '@monorag/retriever';
import { parseIntUpTo, parsePort, parsePositiveInt } from './parse-flags.js';
import { parseHookQueued } from './queue-run-line.js';
import { CLI_VERSION } from './version.js';
import { withDashHint } from './dash-hint.js';

/** Longest `watch --debounce-ms` and `--max-wait-ms`: a minute; a longer quiet time would defeat a watcher. */
const MAX_DEBOUNCE_MS = 60_000;

/**
 * Builds the `monorag` command-line program. Actions throw; `main` turns errors into messages. Each
 * action imports its command module when it runs, so a command loads only what it uses (`search` no
 * gateway, queue or MCP server; `--help` and `--version` none of them).
 */
export function createProgram(): Command {
  const program = new Command('monorag')
    .description('Codebase intelligence: index a repository and search it, from the terminal or over MCP.')
    .version(CLI_VERSION)
    .showHelpAfterError('(run "monorag --help" for usage)')
    .configureOutput({ outputError: (message, write) => write(withDashHint(message)) })
    // Set before the subcommands are added, so they inherit it: errors reach main() instead of process.exit.
    .exitOverride();

  program
    .command('index')
    .description('Index (or update the index of) a project directory.')
    .argument('[path]', 'project directory', '.')
    .option('--data-dir <dir>', 'where the index is stored (default <path>/.monorag; env MONORAG_DATA_DIR)')
    .option('--max-file-bytes <n>', 'skip files larger than this many bytes (default 1048576); a Jupyter notebook when its cell sources are, or its file is over 16 times this', parsePositiveInt)
    .option('--rebuild', 'build a new index beside the existing one (reusing its embedding cache) and swap it in when done; the whole tree only')
    .option('--json', 'print the run report as JSON on stdout')
    .option('-q, --quiet', 'no progress output')
    .option('--paths <paths...>', 'only these repo-relative files or directories (new, changed or deleted)')
    .option('--from-queue', 'index the paths queued by the git hooks (used by the hooks); prints one line per run')
    .option('--hook <name>', 'with --from-queue: the git hook that started the run, named in its line (used by the hooks)')
    .option('--queued <n>', 'with --hook: how many paths that hook queued, or "full", as its line reports (used by the hooks)', parseHookQueued)
    .option('--queue-file <file>', "with --hook: that hook's own queue file; with the BullMQ queue the run enqueues its paths (used by the hooks)")
    .option('--verbose', 'with --from-queue: print the full report too (as MONORAG_LOG_LEVEL=info does)')
    .action(async (path: string, opts) => {
      await (await import('./commands/index-command.js')).runIndexCommand(path, opts);
    });

  program
    .command('search')
    .description('Search an indexed project (hybrid dense + BM25 by default).')
    .argument('<query>', 'what to look for')
    .option('--project <path>', 'indexed project directory (default: current directory)')
    .option('--data-dir <dir>', 'where the index is stored')
    .option('-n, --limit <n>', 'number of results (default 10)', parsePositiveInt)
    .option('--path <prefix>', 'only results under this path prefix (repo-relative, or absolute inside the project)')
    .option('--language <id>', 'only results of this language (e.g. typescript or ts, python or py, markdown or md)')
    .option('--lexical', 'BM25 only; needs no embedding model')
    .option('--json', 'print {"results":[...]} as JSON on stdout and nothing else')
    .option('--explain', `show each result's rank in every ranking stage (${RANKING_STAGES.join(', ')})`)
    .action(async (query: string, opts) => {
      await (await import('./commands/search-command.js')).runSearchCommand(query, opts);
    });

  program
    .command('serve')
    .description('Serve a project index over MCP on stdio (for Claude Code, Cursor, VS Code).')
    .argument('[path]', 'project directory', '.')
    .option('--data-dir <dir>', 'where the index is stored')
    .option('--no-watch', 'serve the index as it is: no file watcher, and a missing index is an error, not built (by default serve builds a missing index and keeps it fresh; sync_index updates it either way)')
    .action(async (path: string, opts) => {
      await (await import('./commands/serve-command.js')).runServeCommand(path, opts);
    });

  program
    .command('gateway')
    .description('Serve a project index over HTTP: MCP Streamable HTTP at /mcp, REST at /v1, /health, /metrics.')
    .argument('[path]', 'project directory', '.')
    .option('--data-dir <dir>', 'where the index is stored')
    .option('--port <n>', 'TCP port (default 7700; env MONORAG_GATEWAY_PORT)', parsePort)
    .option('--host <address>', 'address to bind (default 127.0.0.1; env MONORAG_GATEWAY_HOST); another one needs a token (MONORAG_GATEWAY_TOKEN) or --insecure')
    .option('--insecure', 'allow a non-loopback --host without a token (anyone who reaches the port can read the project)')
    .option('--no-watch', 'serve the index as it is: no file watcher, and a missing index is an error, not built (by default a SQLite index is built when missing and kept fresh; sync_index updates it either way)')
    .action(async (path: string, opts) => {
      await (await import('./commands/gateway-command.js')).runGatewayCommand(path, opts);
    });

  program
    .command('watch')
    .description('Keep the index of a project fresh from file events until interrupted.')
    .argument('[path]', 'project directory', '.')
    .option('--data-dir <dir>', 'where the index is stored')
    .option('--debounce-ms <n>', 'quiet time after a change before indexing, 1-60000 ms (default 100)', parseIntUpTo(MAX_DEBOUNCE_MS))
    .option(
      '--max-wait-ms <n>',
      'longest wait for quiet: a run starts at most this long after the first change even while changes keep coming, 1-60000 ms, at least the debounce (default 10 debounces, at most 5000, at least one debounce)',
      parseIntUpTo(MAX_DEBOUNCE_MS),
    )
    .action(async (path: string, opts) => {
      await (await import('./commands/watch-command.js')).runWatchCommand(path, opts);
    });

  const hooks = program.command('hooks').description('Git hooks that re-index what commits, merges, checkouts, rebases and `git am` change.');
  hooks
    .command('install')
    .description('Install post-commit, post-merge, post-checkout, post-rewrite and post-applypatch (git am) hooks (chaining to existing ones).')
    .argument('[path]', 'project directory', '.')
    .option('--data-dir <dir>', 'where the index is stored')
    .option('--command <cmd>', 'command that starts monorag from a hook (default: the monorag on PATH when the hook runs, else the current one)')
    .action(async (path: string, opts) => {
      await (await import('./commands/hooks-command.js')).runHooksInstallCommand(path, opts);
    });
  hooks
    .command('uninstall')
    .description("Remove monorag's hooks and restore the hooks they chained to.")
    .argument('[path]', 'project directory', '.')
    .option('--data-dir <dir>', 'where the index is stored')
    .action(async (path: string, opts) => {
      await (await import('./commands/hooks-command.js')).runHooksUninstallCommand(path, opts);
    });

  program
    .command('status')
    .description('Show what the index holds and how fresh it is.')
    .argument('[path]', 'indexed project directory, as for index (or --project; default: current directory)')
    .option('--project <path>', 'indexed project directory (default: current directory)')
    .option('--data-dir <dir>', 'where the index is stored')
    .option('--json', 'print JSON')
    .action(async (path: string | undefined, opts) => {
      await (await import('./commands/status-command.js')).runStatusCommand({ ...opts, path });
    });

  for (const [command, role, what] of [
    ['symbols', 'definition', 'Definitions of a name (functions, methods, classes, ...) from the symbol table.'],
    ['refs', 'reference', 'References to a name (call sites, imports, exports) from the symbol table.'],
  ] as const) {
    program
      .command(command)
      .description(what)
      .argument('<name>', 'exact identifier, e.g. parseHeaders')
      .option('--project <path>', 'indexed project directory (default: current directory)')
      .option('--data-dir <dir>', 'where the index is stored')
      .option('-n, --limit <n>', 'rows at most (default 100)', parsePositiveInt)
      .option('--path <prefix>', 'only rows under this path prefix (repo-relative, or absolute inside the project)')
      .option('--json', 'print {"results":[{path,startLine,endLine,kind,name,enclosing}]} on stdout and nothing else')
      .action(async (name: string, opts) => {
        await (await import('./commands/symbols-command.js')).runSymbolsCommand(role, name, opts);
      });
  }

  const embedder = program.command('embedder').description('Manage the local embedding server.');
  embedder
    .command('stop')
    .description('Stop the managed embedding server (the one in embedding.stateDir, shared by the projects that use it).')
    .option('--project <path>', 'project whose configuration names the server (default: current directory)')
    .option('--data-dir <dir>', 'the project\'s data directory (where a server without embedding.stateDir records itself)')
    .action(async (opts) => {
      await (await import('./commands/embedder-command.js')).runEmbedderStopCommand(opts);
    });

  program
    .command('worker')
    .description('Run an indexing worker: take file jobs from the project\'s BullMQ queue (REDIS_URL) and write the configured store.')
    .argument('[path]', 'this machine\'s checkout of the project', '.')
    .option('--data-dir <dir>', 'where the index is stored')
    .option('-c, --concurrency <n>', 'jobs at once in this process (default 2; env MONORAG_WORKER_CONCURRENCY)', parsePositiveInt)
    .action(async (path: string, opts) => {
      await (await (await import('./commands/worker-command.js')).runWorkerCommand(path, opts)).done;
    });

  const jobs = program
    .command('jobs')
    .description('List the project\'s queued, active and failed indexing jobs (BullMQ on REDIS_URL).')
    .option('--project <path>', 'project directory (default: current directory)')
    .option('--data-dir <dir>', 'where the index is stored')
    .option('--retry', 'move every failed job back to the queue first')
    .option('-n, --limit <n>', 'jobs listed per state (default 50)', parsePositiveInt)
    .option('--json', 'print JSON')
    .action(async (opts) => {
      await (await import('./commands/jobs-command.js')).runJobsCommand(opts);
    });
  jobs
    .command('enqueue')
    .description('Diff the tree against the index and enqueue one job per new, changed or removed file for `monorag worker` (and per unchanged file when the index was written with another secret scanner).')
    .argument('[path]', 'project directory', '.')
    .option('--data-dir <dir>', 'where the index is stored')
    .option('--rebuild', 'delete the existing index first')
    .option('--wait', 'wait until the queue is drained, then record the indexed commit (and the secret scanner, unless jobs failed)')
    .option('--json', 'print the report as JSON')
    // `--json` and `--data-dir` may also land on `jobs` itself (commander parses a parent's options anywhere).
    .action(async (path: string, _opts, command: Command) => {
      await (await import('./commands/jobs-command.js')).runEnqueueCommand(path, command.optsWithGlobals());
    });

  return program;
}
