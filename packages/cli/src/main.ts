import { CommanderError } from 'commander';
import { errorMessage, isMonoragError, ErrorCode } from '@monorag/shared';
import { createProgram } from './program.js';

/**
 * Runs the CLI with `argv` (as `process.argv`). Errors become one line on stderr, no stack trace
 * (set MONORAG_LOG_LEVEL=debug for details in the logs): exit code 2 for bad arguments and bad
 * configuration (a flag, an environment variable or `monorag.json`: `CONFIG_INVALID`), 1 otherwise.
 * @returns the process exit code.
 */
export async function main(argv: string[]): Promise<number> {
  const program = createProgram();
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander has already printed its message (or help / version output).
      return error.exitCode === 0 ? 0 : 2;
    }
    // Every code raised for a bad argument (a wrong value, a path outside the project or left out by its
    // rules, a path that does not exist) or a bad setting: the user's input, which no retry will fix, as
    // opposed to a failure at run time.
    const invalid = [ErrorCode.INVALID_ARGUMENT, ErrorCode.PATH_OUTSIDE_PROJECT, ErrorCode.PATH_IGNORED, ErrorCode.NOT_FOUND, ErrorCode.CONFIG_INVALID].some((code) =>
      isMonoragError(error, code),
    );
    process.stderr.write(`monorag: ${errorMessage(error)}\n`);
    if (!isMonoragError(error) && error instanceof Error && error.stack) {
      process.stderr.write(`  (unexpected error: ${error.name}; please report it)\n`);
    }
    return invalid ? 2 : 1;
  }
}
