import { existsSync, mkdirSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { createLogger, ErrorCode, errorMessage, invocationDir, loadConfig, MonoragError, type Config, type ConfigInput, type Logger } from '@monorag/shared';

/** Everything a command needs to know about the project it works on. */
export interface ProjectContext {
  /** Absolute real path of the project root. */
  root: string;
  config: Config;
  /** Absolute path of the data directory. */
  dataDir: string;
  /** Absolute path of the SQLite index file. */
  storeFile: string;
  logger: Logger;
  /** The argument the project path came from (`<path>`, `--project`), named in messages. */
  argName: string;
  /** The flag overrides the configuration was loaded with (to load another directory's the same way). */
  overrides?: ConfigInput;
}

/** Name of the SQLite index file inside the data directory. */
export const STORE_FILE_NAME = 'index.sqlite';

/**
 * Resolves the project directory given on the command line (default: the directory monorag was run
 * in), a relative path against that directory ({@link invocationDir}: under `pnpm monorag` the
 * directory it was typed in, not the monorag checkout pnpm runs it from).
 * @param argName the flag or argument the path came from, named in errors.
 * @param base the directory relative paths are resolved against; default {@link invocationDir}.
 * @throws MonoragError `NOT_FOUND` or `INVALID_ARGUMENT` naming the argument.
 */
export function resolveProjectRoot(input: string | undefined, argName: string, base = invocationDir()): string {
  const wanted = path.resolve(base, input ?? '.');
  if (!existsSync(wanted)) {
    throw new MonoragError(ErrorCode.NOT_FOUND, `${argName}: ${wanted} does not exist. Give the path of the project's directory.`);
  }
  const real = realpathSync(wanted);
  if (!statSync(real).isDirectory()) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `${argName}: ${wanted} is a file; give the project's directory.`);
  }
  return real;
}

/** Options of {@link createProjectContext}. */
export interface ProjectContextOptions {
  /** The project path from the command line, if any. */
  project: string | undefined;
  /** The argument name for messages, e.g. `<path>` or `--project`. */
  argName: string;
  /** Flag overrides of the configuration. */
  overrides?: ConfigInput;
}

/** The data directory of the project at `root`: `dataDir` from its configuration, resolved against the root; default `<root>/.monorag`. */
export function resolveDataDir(root: string, dataDir: string | undefined): string {
  return path.resolve(root, dataDir ?? '.monorag');
}

/** `child` relative to `parent` (native separators) when it lies strictly inside it, else undefined. */
export function relativeInside(parent: string, child: string): string | undefined {
  const rel = path.relative(parent, child);
  return rel === '' || rel.startsWith('..') || path.isAbsolute(rel) ? undefined : rel;
}

/** Loads configuration for a project and creates its logger (stderr only). */
export function createProjectContext({ project, argName, overrides }: ProjectContextOptions): ProjectContext {
  const root = resolveProjectRoot(project, argName);
  const config = loadConfig({ projectRoot: root, overrides });
  const dataDir = resolveDataDir(root, config.dataDir);
  const logger = createLogger({ level: config.logLevel, pretty: config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stderr.isTTY === true) });
  return { root, config, dataDir, storeFile: path.join(dataDir, STORE_FILE_NAME), logger, argName, overrides };
}

/** A directory above a project that is a monorag project itself, from {@link enclosingProject}. */
export interface EnclosingProject {
  /** Its absolute root. */
  root: string;
  /** What makes it a project, for messages: `its monorag.json`, `its index <file>`, or both. */
  evidence: string;
}

/** Name of the project configuration file at a project's root. */
const CONFIG_FILE_NAME = 'monorag.json';

/**
 * The nearest directory above the context's project that is a monorag project itself: one holding a
 * `monorag.json`, or an index file in its data directory (resolved with its own configuration and the
 * context's overrides; a data directory that is the context's own, as an absolute one is for every
 * directory, does not count). Undefined when no directory above is one, and when the project has a
 * `monorag.json` of its own: it is then a project of its own by choice.
 */
export function enclosingProject(context: ProjectContext): EnclosingProject | undefined {
  if (existsSync(path.join(context.root, CONFIG_FILE_NAME))) return undefined;
  for (let dir = path.dirname(context.root); ; dir = path.dirname(dir)) {
    const configured = existsSync(path.join(dir, CONFIG_FILE_NAME));
    let storeFile: string | undefined;
    try {
      const candidate = path.join(resolveDataDir(dir, loadConfig({ projectRoot: dir, overrides: context.overrides }).dataDir), STORE_FILE_NAME);
      if (candidate !== context.storeFile && existsSync(candidate)) storeFile = candidate;
    } catch (error) {
      // A monorag.json that does not load still marks a project; its index cannot be located.
      context.logger.debug({ dir, err: errorMessage(error) }, 'skipped the data directory of a parent directory whose configuration cannot be read');
    }
    if (configured || storeFile) {
      const evidence = [configured ? `its ${CONFIG_FILE_NAME}` : undefined, storeFile ? `its index ${storeFile}` : undefined].filter(Boolean).join(' and ');
      return { root: dir, evidence };
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * Refuses to give the context's directory a data directory of its own when it lies inside another
 * project ({@link enclosingProject}): a worker, an index run or a hook there would start a second index
 * (and a second queue) of part of that project, under the subdirectory's own configuration rather than
 * the project's `monorag.json`. Does nothing when the data directory exists already, so an index
 * deliberately built there before keeps working.
 * @param command the command to suggest on the enclosing root (`worker`), else the message says "the command".
 * @throws MonoragError `INVALID_ARGUMENT` naming the argument, the enclosing project's root and why it
 *   is one, saying to run the command on that root, and how to make the directory a project of its own.
 */
export function refuseNestedProject(context: ProjectContext, command?: string): void {
  if (existsSync(context.dataDir)) return;
  const enclosing = enclosingProject(context);
  if (enclosing === undefined) return;
  const sub = path.relative(enclosing.root, context.root).split(path.sep).join('/');
  const instead = command === undefined ? `run the command on that root instead (give ${enclosing.root} as ${context.argName})` : `run \`monorag ${command} ${enclosing.root}\` instead`;
  throw new MonoragError(
    ErrorCode.INVALID_ARGUMENT,
    `${context.argName}: ${context.root} lies inside the project ${enclosing.root} (${enclosing.evidence}): ` +
      `${instead}; one index, queue and set of workers serve the whole project, ` +
      `and a search's --path ${sub} keeps to this directory. Nothing was created in ${context.root}. ` +
      `To index ${context.root} as a project of its own, give it a ${CONFIG_FILE_NAME} (\`{}\` will do).`,
  );
}

/** Names monorag itself writes in a data directory (the index and its SQLite side files, locks, queues, logs). */
const DATA_DIR_ENTRY = /^(index\.|hooks|queue|watchers|embedder|model\.json)/;

/**
 * Refuses a configured data directory (`--data-dir`, `MONORAG_DATA_DIR`, `dataDir`) that is the project
 * root; a folder inside the project that holds entries monorag did not write (the index leaves its
 * data directory out of the walk and adds it to `.git/info/exclude`, so a source folder given by
 * mistake, `"dataDir": "src"`, would drop out of the index and out of `git status`, even beside a copied
 * index file); or a folder outside it that holds such entries and no index (`--data-dir ..`, another
 * project's root: the index would be written among its files).
 * @throws MonoragError `INVALID_ARGUMENT` naming the directory and an entry it holds, saying to choose a new directory
 */
export function refuseProjectFolderAsDataDir(context: ProjectContext): void {
  const { dataDir, root } = context;
  if (context.config.dataDir === undefined) return;
  const source = 'The data directory (from --data-dir, MONORAG_DATA_DIR or "dataDir" in monorag.json)';
  const fix = 'Choose a new directory for the index, such as .monorag (the default) or one outside the project.';
  if (dataDir === root) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `${source} is the project root ${root}: the index and its files would sit among the project's own. ${fix}`);
  }
  if (!existsSync(dataDir) || !statSync(dataDir).isDirectory()) return;
  const inside = relativeInside(root, dataDir) !== undefined;
  if (!inside && existsSync(path.join(dataDir, STORE_FILE_NAME))) return;
  const foreign = readdirSync(dataDir).filter((name) => !DATA_DIR_ENTRY.test(name)).sort();
  if (foreign.length === 0) return;
  const held = `holds ${foreign.length} entr${foreign.length === 1 ? 'y' : 'ies'} monorag did not write (${foreign[0]}${foreign.length > 1 ? ', ...' : ''})`;
  const why = inside
    ? `${dataDir} is a folder of the project and ${held}: monorag leaves its data directory out of the index and out of git's view (.git/info/exclude), so these files would be lost to both.`
    : `${dataDir} ${held} and no index: monorag would write its index among them.`;
  throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `${source} ${why} Nothing was written. ${fix}`);
}

/**
 * Creates the data directory if needed, one missing component at a time (Node's recursive mkdir
 * loops forever on a parent that refuses new entries with ENOENT, as /proc does). A directory inside
 * another project gets none ({@link refuseNestedProject}).
 * @throws MonoragError `INVALID_ARGUMENT` when the data directory is missing and the project lies inside
 *   another one, or a file stands where a directory must be; `STORE_FAILED` naming the directory and
 *   saying what to do: the project (or the `--data-dir` given) is not writable, or the file system
 *   refuses new directories there.
 */
export function ensureDataDir(context: ProjectContext): void {
  refuseNestedProject(context);
  refuseProjectFolderAsDataDir(context);
  const { dataDir } = context;
  const chosen = context.config.dataDir !== undefined;
  const fail = (code: string, why: string, cause?: unknown): never => {
    throw new MonoragError(
      // A file where the directory must be is the given path's fault (exit 2, like the other refusals); the rest are the file system's.
      code === 'ENOTDIR' ? ErrorCode.INVALID_ARGUMENT : ErrorCode.STORE_FAILED,
      `Cannot create the index directory ${dataDir} (${code}): ${why} ` +
        `${chosen ? 'Choose a writable directory with --data-dir' : 'Pass --data-dir'} (or set MONORAG_DATA_DIR) to keep the index somewhere writable.`,
      cause === undefined ? undefined : { cause },
    );
  };
  const missing: string[] = [];
  let existing = dataDir;
  while (!existsSync(existing)) {
    missing.unshift(existing);
    const parent = path.dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  if (existsSync(existing) && !statSync(existing).isDirectory()) fail('ENOTDIR', `${existing} is a file, not a directory.`);
  for (const dir of missing) {
    try {
      mkdirSync(dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
      if (code === 'EEXIST' && statSync(dir).isDirectory()) continue;
      if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
        fail(code, chosen ? `${path.dirname(dir)} is not writable by this user.` : 'the project is not writable by this user.', error);
      }
      fail(code, `the file system refuses a new directory ${dir}.`, error);
    }
  }
}

/**
 * The data directory as a gitignore-style anchored pattern (e.g. `/.monorag/`) when it lies inside the
 * project, otherwise undefined.
 */
export function dataDirIgnorePattern(context: ProjectContext): string | undefined {
  const rel = relativeInside(context.root, context.dataDir);
  return rel === undefined ? undefined : `/${rel.split(path.sep).join('/')}/`;
}
