import { parseArgs, type ParseArgsConfig } from 'node:util';

/** What `readArgs` made of a command line. */
export type ReadArgs<T extends ParseArgsConfig> =
  | { readonly kind: 'ok'; readonly parsed: ReturnType<typeof parseArgs<T>> }
  | { readonly kind: 'help' }
  | { readonly kind: 'error'; readonly message: string };

/**
 * Parses `args` (the command line after the script, e.g. `process.argv.slice(2)`) with Node's
 * `parseArgs` and `config` (strict, Node's default). `--help` or `-h` anywhere gives `help`; an unknown flag, a flag
 * missing its value or a stray positional gives `error` with Node's message, which names the flag.
 * Never throws for bad input.
 */
export function readArgs<T extends ParseArgsConfig>(args: readonly string[], config: T): ReadArgs<T> {
  if (args.includes('--help') || args.includes('-h')) return { kind: 'help' };
  try {
    return { kind: 'ok', parsed: parseArgs<T>({ ...config, args: [...args] }) };
  } catch (err) {
    return { kind: 'error', message: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * `readArgs` for a script's own command line: prints `usage` on stdout and exits 0 for `--help`;
 * prints `<name>: <message>` and `usage` on stderr and exits 2 for bad input.
 */
export function readArgsOrExit<T extends ParseArgsConfig>(name: string, usage: string, config: T): ReturnType<typeof parseArgs<T>> {
  const read = readArgs(process.argv.slice(2), config);
  if (read.kind === 'ok') return read.parsed;
  if (read.kind === 'help') {
    process.stdout.write(usage);
    process.exit(0);
  }
  process.stderr.write(`${name}: ${read.message}\n\n${usage}`);
  process.exit(2);
}
