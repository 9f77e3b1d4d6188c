import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ErrorCode, MonoragError } from './errors.js';
import { nearestName } from './nearest-name.js';
import { parseDecimal } from './parse-decimal.js';

/** Name of the optional per-project configuration file, read from the project root. */
export const CONFIG_FILE_NAME = 'monorag.json';

/**
 * A number written in decimal digits (an environment variable's string) as that number ({@link parseDecimal});
 * any other string stays a string, which the number schema then refuses.
 */
function fromDecimal(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const n = parseDecimal(value);
  return Number.isNaN(n) ? value : n;
}

/** A boolean setting: true / false, or as text (the environment, or a string in monorag.json) also 1 / 0, yes / no, y / n, on / off, enabled / disabled in any case (zod's `stringbool`). */
function booleanSetting() {
  return z.union([z.boolean(), z.stringbool()], { error: 'must be true or false (as text also 1 / 0, yes / no, y / n, on / off, enabled / disabled, in any case)' });
}

/** A whole number >= 1 (at most `max`), from a number or decimal digits. */
function positiveInt(max?: number) {
  const whole = z.number({ error: (issue) => (issue.code === 'invalid_type' ? 'expected a whole number in decimal digits' : undefined) }).int().positive();
  return z.preprocess(fromDecimal, max === undefined ? whole : whole.max(max));
}
/**
 * Most candidates or results one search may ask a store for: sqlite-vec 0.1.9 answers a KNN query for
 * at most 4096 neighbours (the store's MAX_DENSE_LIMIT); a larger setting would turn every search into
 * a BM25-only one.
 */
const MAX_SEARCH_DEPTH = 4096;

/**
 * The configuration schema. Every key has a default; a project file (`monorag.json`), the environment
 * and command-line flags override it, in that order (flags win). Objects are strict: an unknown key (a
 * typo such as `embedding.ur`) is an error, never silently ignored.
 */
export const configSchema = z.strictObject({
  /** Directory of the index files; default `<project>/.monorag`. Env `MONORAG_DATA_DIR`. */
  dataDir: z.string().min(1).optional(),
  /** pino level. Env `MONORAG_LOG_LEVEL`. */
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
  /**
   * Log lines on stderr: `json` (one JSON object per line, for collectors), `pretty` (one readable
   * line per record), or `auto`: pretty when stderr is a terminal, else JSON. Env `MONORAG_LOG_FORMAT`.
   */
  logFormat: z.enum(['auto', 'json', 'pretty']).default('auto'),
  index: z
    .strictObject({
      /**
       * Files larger than this many bytes are skipped. A Jupyter notebook (`.ipynb`) is measured by its cell
       * sources (UTF-8 bytes), not its outputs: one over this is read to measure them, up to 16 times this
       * on disk; a larger one is skipped unread. Env `MONORAG_MAX_FILE_BYTES`. Default 1 MiB.
       */
      maxFileBytes: positiveInt().default(1024 * 1024),
      /** Files chunked and embedded at once. */
      concurrency: positiveInt().default(4),
      /**
       * Days an embedding-cache entry no chunk references is kept (so switching back to a branch or
       * undoing an edit re-embeds nothing) before a full index run removes it. 0 prunes at once.
       * Env `MONORAG_CACHE_RETENTION_DAYS`. Default 30.
       */
      cacheRetentionDays: z.preprocess(fromDecimal, z.number({ error: 'expected a number of days in decimal digits' }).min(0)).default(30),
      /**
       * Replace secrets found in file text (API and cloud tokens, credentials in URLs; secretlint's
       * recommended rules) with `[REDACTED:<rule>]` before chunking, so they never reach the embedder,
       * the store or search results. `false` indexes them as written. Files holding a private key are
       * left out either way, and `get_file_context` redacts regardless. Env `MONORAG_REDACT_SECRETS`
       * (`true`/`false`). Default true.
       */
      redactSecrets: booleanSetting().default(true),
    })
    .default({ maxFileBytes: 1024 * 1024, concurrency: 4, cacheRetentionDays: 30, redactSecrets: true }),
  embedding: z
    .strictObject({
      /** URL of a running embedding server; when unset the CLI starts one. Env `EMBEDDING_URL`. */
      url: z.string().url().optional(),
      /** Python interpreter for the managed embedding server. Env `MONORAG_PYTHON`. */
      python: z.string().min(1).optional(),
      /**
       * Directory of the managed local embedding server's state (`embedder.json`, log, start lock),
       * shared by every project that uses it, so one server (about 1.3-1.7 GB of memory) serves them
       * all. Env `MONORAG_EMBEDDER_DIR`. Default `$XDG_CACHE_HOME/monorag/embedder`, else
       * `~/.cache/monorag/embedder`; without a home directory, the project's data directory.
       */
      stateDir: z.string().min(1).optional(),
      /** Seconds the managed embedding server stays up without requests. Env `MONORAG_EMBEDDER_IDLE_SECONDS`. */
      idleSeconds: positiveInt().default(1800),
      /** Texts sent per /embed request. Env `MONORAG_EMBED_BATCH_SIZE`. */
      batchSize: positiveInt().default(32),
      /** Per-request time-out in milliseconds. */
      timeoutMs: positiveInt().default(120_000),
      /** Seconds to wait for a managed server to become ready (model load). */
      startupSeconds: positiveInt().default(180),
    })
    .default({ idleSeconds: 1800, batchSize: 32, timeoutMs: 120_000, startupSeconds: 180 }),
  store: z
    .strictObject({
      /** `sqlite` (embedded default: one file per project) or `qdrant` (team stack). Env `MONORAG_STORE`. */
      kind: z.enum(['sqlite', 'qdrant']).default('sqlite'),
      qdrant: z
        .strictObject({
          /** Qdrant REST URL, e.g. `http://qdrant:6333`; required when kind is `qdrant`. Env `QDRANT_URL`. */
          url: z.string().url().optional(),
          /** Qdrant API key. Env `QDRANT_API_KEY`. */
          apiKey: z.string().min(1).optional(),
          /** Project key naming the project's collections; default the project directory's name. Env `MONORAG_PROJECT`. */
          project: z.string().min(1).optional(),
          /** Prefix of every collection and alias name. */
          collectionPrefix: z.string().regex(/^[A-Za-z0-9_-]+$/).default('monorag'),
        })
        .default({ collectionPrefix: 'monorag' }),
    })
    .default({ kind: 'sqlite', qdrant: { collectionPrefix: 'monorag' } }),
  queue: z
    .strictObject({
      /** `memory` (in-process, the embedded default) or `bullmq` (Redis; `monorag worker` processes). Env `MONORAG_QUEUE`. */
      kind: z.enum(['memory', 'bullmq']).default('memory'),
      /** Redis URL for BullMQ (`redis://` or `rediss://`); required when kind is `bullmq`. Env `REDIS_URL`. */
      redisUrl: z
        .string()
        .url()
        .refine((url) => /^rediss?:\/\//i.test(url), { message: 'must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379' })
        .optional(),
      /** Jobs one `monorag worker` process runs at once. Env `MONORAG_WORKER_CONCURRENCY`. */
      concurrency: positiveInt().default(2),
      /** Attempts per file job before it is kept as failed. */
      attempts: positiveInt().default(5),
      /** First retry delay in ms; doubles each attempt (BullMQ exponential backoff). */
      backoffMs: positiveInt().default(1000),
      /** Seconds a worker's job lock lasts; a job of a dead worker is taken over after about this long. Env `MONORAG_QUEUE_LOCK_SECONDS`. */
      lockSeconds: positiveInt().default(30),
    })
    .default({ kind: 'memory', concurrency: 2, attempts: 5, backoffMs: 1000, lockSeconds: 30 }),
  search: z
    .strictObject({
      /** Results returned when no limit is given. */
      defaultLimit: positiveInt().default(10),
      /** Largest limit a caller may ask for. */
      maxLimit: positiveInt(MAX_SEARCH_DEPTH).default(50),
      /** Candidates taken from each of dense and BM25 before fusion. */
      candidatePool: positiveInt(MAX_SEARCH_DEPTH).default(50),
      /** Largest query accepted, in characters. */
      maxQueryChars: positiveInt().default(2000),
      /** Snippet size in characters. */
      snippetChars: positiveInt().default(600),
      /**
       * Whether dense search passes the query's embedding through the bundled query adapter of the index's
       * model (`@monorag/retriever` query-adapter.ts; eval/RESULTS.md has its effect). `false` searches with the
       * model's own query vectors. Env `MONORAG_QUERY_ADAPTER`.
       */
      queryAdapter: booleanSetting().default(true),
    })
    .superRefine((search, ctx) => {
      if (search.defaultLimit > search.maxLimit) {
        ctx.addIssue({
          code: 'custom',
          path: ['defaultLimit'],
          message: `search.defaultLimit (${search.defaultLimit}) must not exceed search.maxLimit (${search.maxLimit}); lower the one or raise the other`,
        });
      }
    })
    .default({ defaultLimit: 10, maxLimit: 50, candidatePool: 50, maxQueryChars: 2000, snippetChars: 600, queryAdapter: true }),
  /** The HTTP gateway (`monorag gateway`): MCP Streamable HTTP at /mcp, REST at /v1, /health, /metrics. */
  gateway: z
    .strictObject({
      /** Address to bind; loopback by default. Without tokens a non-loopback one is refused (unless `--insecure`). Env `MONORAG_GATEWAY_HOST`. */
      host: z.string().min(1).default('127.0.0.1'),
      /** TCP port. Env `MONORAG_GATEWAY_PORT`. */
      port: z.preprocess(fromDecimal, z.number({ error: 'expected a port number in decimal digits' }).int().min(1, 'must be a port from 1 to 65535').max(65_535, 'must be a port from 1 to 65535')).default(7700),
      /**
       * Bearer tokens; when any is set, every route but /health needs `Authorization: Bearer <token>`.
       * At least 16 characters each (e.g. `openssl rand -hex 32`). Env `MONORAG_GATEWAY_TOKEN`: one
       * token, or several separated by commas.
       */
      tokens: z
        .preprocess(
          (value) => (typeof value === 'string' ? value.split(',').map((t) => t.trim()).filter((t) => t !== '') : value),
          z.array(z.string().min(16, 'each token must be at least 16 characters long (e.g. `openssl rand -hex 32`)')),
        )
        .default([]),
      /** Requests per client (token, else IP address) per window; past it, 429. Env `MONORAG_GATEWAY_RATE_LIMIT`. */
      rateLimit: positiveInt().default(300),
      /** Length of the rate-limit window, in seconds. */
      rateWindowSeconds: positiveInt().default(60),
      /** MCP sessions open at once; a new one past it is refused with 503. Env `MONORAG_GATEWAY_MAX_SESSIONS`. */
      maxSessions: positiveInt().default(64),
      /** An MCP session unused this long (seconds) is closed. */
      sessionIdleSeconds: positiveInt().default(1800),
    })
    .default({ host: '127.0.0.1', port: 7700, tokens: [], rateLimit: 300, rateWindowSeconds: 60, maxSessions: 64, sessionIdleSeconds: 1800 }),
});

/** Parsed configuration with defaults applied. */
export type Config = z.infer<typeof configSchema>;

/** Partial configuration as written in a file, the environment or flags. */
export type ConfigInput = z.input<typeof configSchema>;

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** Absolute project root; `monorag.json` is read from it when present. */
  projectRoot: string;
  /** Environment to read; default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Values from command-line flags; they win over everything else. */
  overrides?: ConfigInput;
}

/** Defaults that depend on the environment (the user's cache directory); every other layer overrides them. */
function defaultsFromEnv(env: Record<string, string | undefined>): ConfigInput {
  const cache = env.XDG_CACHE_HOME || (env.HOME ? path.join(env.HOME, '.cache') : undefined);
  return (cache ? { embedding: { stateDir: path.join(cache, 'monorag', 'embedder') } } : {}) as ConfigInput;
}

/**
 * The environment variables monorag reads, each with the configuration key it sets (documented in the
 * README's configuration table). Values are strings; the schema coerces and validates them. A
 * `caseless` variable is lowercased first (`MONORAG_LOG_LEVEL=INFO` means `info`).
 */
const ENV_KEYS: readonly (readonly [variable: string, keyPath: readonly string[], caseless?: 'caseless'])[] = [
  ['EMBEDDING_URL', ['embedding', 'url']],
  ['MONORAG_PYTHON', ['embedding', 'python']],
  ['MONORAG_EMBEDDER_DIR', ['embedding', 'stateDir']],
  ['MONORAG_EMBEDDER_IDLE_SECONDS', ['embedding', 'idleSeconds']],
  ['MONORAG_EMBED_BATCH_SIZE', ['embedding', 'batchSize']],
  ['MONORAG_MAX_FILE_BYTES', ['index', 'maxFileBytes']],
  ['MONORAG_CACHE_RETENTION_DAYS', ['index', 'cacheRetentionDays']],
  ['MONORAG_REDACT_SECRETS', ['index', 'redactSecrets'], 'caseless'],
  ['QDRANT_URL', ['store', 'qdrant', 'url']],
  ['QDRANT_API_KEY', ['store', 'qdrant', 'apiKey']],
  ['MONORAG_PROJECT', ['store', 'qdrant', 'project']],
  ['MONORAG_STORE', ['store', 'kind']],
  ['MONORAG_QUEUE', ['queue', 'kind']],
  ['REDIS_URL', ['queue', 'redisUrl']],
  ['MONORAG_WORKER_CONCURRENCY', ['queue', 'concurrency']],
  ['MONORAG_QUEUE_LOCK_SECONDS', ['queue', 'lockSeconds']],
  ['MONORAG_DATA_DIR', ['dataDir']],
  ['MONORAG_QUERY_ADAPTER', ['search', 'queryAdapter'], 'caseless'],
  ['MONORAG_LOG_LEVEL', ['logLevel'], 'caseless'],
  ['MONORAG_LOG_FORMAT', ['logFormat'], 'caseless'],
  ['MONORAG_GATEWAY_HOST', ['gateway', 'host']],
  ['MONORAG_GATEWAY_PORT', ['gateway', 'port']],
  ['MONORAG_GATEWAY_TOKEN', ['gateway', 'tokens']],
  ['MONORAG_GATEWAY_RATE_LIMIT', ['gateway', 'rateLimit']],
  ['MONORAG_GATEWAY_MAX_SESSIONS', ['gateway', 'maxSessions']],
];

function fromEnv(env: Record<string, string | undefined>): ConfigInput {
  const out: Record<string, unknown> = {};
  for (const [variable, keyPath, caseless] of ENV_KEYS) {
    const raw = env[variable];
    if (!raw) continue;
    const value = caseless ? raw.toLowerCase() : raw;
    let target = out;
    for (const key of keyPath.slice(0, -1)) target = (target[key] ??= {}) as Record<string, unknown>;
    target[keyPath[keyPath.length - 1]!] = value;
  }
  return out as ConfigInput;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep merge of plain objects; later sources win; `undefined` never overrides. */
export function mergeConfig(...sources: unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const source of sources) {
    if (!isPlainObject(source)) continue;
    for (const [key, value] of Object.entries(source)) {
      if (value === undefined) continue;
      const prev = out[key];
      // A section given as something else than an object (`"index": 5` in the file) stays, so the
      // schema reports it; keys from the environment or the flags must not hide it.
      if (prev !== undefined && !isPlainObject(prev) && isPlainObject(value)) continue;
      out[key] = isPlainObject(prev) && isPlainObject(value) ? mergeConfig(prev, value) : value;
    }
  }
  return out;
}

/** The value at `keyPath` inside nested plain objects, or undefined (an empty path gives undefined: the root is not a value). */
function valueAt(source: unknown, keyPath: readonly string[]): unknown {
  if (keyPath.length === 0) return undefined;
  let value: unknown = source;
  for (const key of keyPath) {
    if (!isPlainObject(value)) return undefined;
    value = value[key];
  }
  return value;
}

function readConfigFile(file: string): unknown {
  if (!existsSync(file)) return {};
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const what = code === 'EISDIR' ? 'is a directory' : `cannot be read (${(error as Error).message})`;
    throw new MonoragError(
      ErrorCode.CONFIG_INVALID,
      `${file} ${what}; monorag reads its configuration from a JSON file of that name. Replace it with a file or remove it.`,
      { cause: error },
    );
  }
  let parsed: unknown;
  try {
    // A UTF-8 byte-order mark (some Windows editors write one) is not JSON; drop it as decodeText does.
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new MonoragError(
      ErrorCode.CONFIG_INVALID,
      `${file} is not valid JSON (${(error as Error).message}); fix or remove it.`,
      { cause: error },
    );
  }
  if (!isPlainObject(parsed)) {
    throw new MonoragError(
      ErrorCode.CONFIG_INVALID,
      `${file} must hold a JSON object such as {"index": {"maxFileBytes": 2097152}}; it holds ${Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : `a ${typeof parsed}`}. Fix or remove it.`,
    );
  }
  return parsed;
}

/** Where {@link invalidValueSentence} looks for the source of a value. */
interface ConfigSources {
  file: string;
  env: NodeJS.ProcessEnv;
  fromFile: unknown;
  merged: unknown;
  overrides: ConfigInput;
}

/** One invalid value as a sentence: the key, the schema's message and the source whose value the merge kept, to fix there. */
function invalidValueSentence(issue: z.core.$ZodIssue, { file, env, fromFile, merged, overrides }: ConfigSources): string {
  const key = issue.path.join('.') || '(root)';
  // The source whose value the merge kept: flags, then the environment, then the file (a section
  // that is not an object, `"index": 5`, is kept from the file even when the environment sets keys in it).
  const issuePath = issue.path.map(String);
  // An element of a list-valued key (`gateway.tokens.0`) is judged by the whole key, which one source set.
  const envEntry = ENV_KEYS.find(([, envPath]) => envPath.length <= issuePath.length && envPath.every((k, i) => k === issuePath[i]));
  const keyPath = envEntry && envEntry[1].length < issuePath.length && !isPlainObject(valueAt(merged, envEntry[1])) ? envEntry[1] : issuePath;
  const bad = valueAt(merged, keyPath);
  const sets = (source: unknown): boolean => valueAt(source, keyPath) !== undefined && (isPlainObject(bad) || Object.is(valueAt(source, keyPath), bad));
  const variable = envEntry?.[1].join('.') === keyPath.join('.') ? envEntry[0] : undefined;
  const source =
    sets(overrides) ? 'the command-line flags'
      : sets(fromEnv(env)) ? `the environment variable ${variable ?? '(MONORAG_* or EMBEDDING_URL)'}`
        : sets(fromFile) ? file
          : `${file}, the MONORAG_* / EMBEDDING_URL environment variables or the command-line flags`;
  return `Invalid configuration value for "${key}": ${issue.message}. It comes from ${source}; fix it there.`;
}

/**
 * Reads configuration from `<projectRoot>/monorag.json`, the environment and flag overrides, and
 * validates it. This is the only place in monorag that reads `process.env`.
 * @throws MonoragError `CONFIG_INVALID` naming the key and the source to fix.
 */
export function loadConfig({ projectRoot, env = process.env, overrides = {} }: LoadConfigOptions): Config {
  const file = path.join(projectRoot, CONFIG_FILE_NAME);
  const fromFile = readConfigFile(file);
  const merged = mergeConfig(defaultsFromEnv(env), fromFile, fromEnv(env), overrides);
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    // The environment and the flags only set known keys, so an unknown key comes from the file.
    const unknown = parsed.error.issues.flatMap((i) => (i.code === 'unrecognized_keys' ? i.keys.map((key) => ({ objectPath: i.path.map(String), key })) : []));
    const invalid = parsed.error.issues.filter((i) => i.code !== 'unrecognized_keys').map((issue) => invalidValueSentence(issue, { file, env, fromFile, merged, overrides }));
    // Every fault at once, so one edit fixes them all: unknown keys first, then each invalid value with its source.
    const sentences = [...(unknown.length > 0 ? [unknownKeyError(file, unknown).message] : []), ...invalid];
    throw new MonoragError(ErrorCode.CONFIG_INVALID, sentences.join(' '));
  }
  return parsed.data;
}

/** Where one setting's value comes from (see {@link settingSource}). */
export type SettingSource = { kind: 'flag' } | { kind: 'env'; variable: string } | { kind: 'file'; file: string } | { kind: 'default' };

/**
 * Which source set the setting at `keyPath` (e.g. `['gateway', 'host']`), by the precedence of
 * {@link loadConfig}: the flags (`overrides`), then the environment, then `monorag.json`, else the
 * default. For messages that name the setting where the user set it (a trial: a host from
 * `MONORAG_GATEWAY_HOST` was refused as `--host`). Call it after `loadConfig` succeeded with the same options.
 * @throws MonoragError `CONFIG_INVALID` when `monorag.json` cannot be read (as `loadConfig`).
 */
export function settingSource(keyPath: readonly string[], { projectRoot, env = process.env, overrides = {} }: LoadConfigOptions): SettingSource {
  if (valueAt(overrides, keyPath) !== undefined) return { kind: 'flag' };
  const entry = ENV_KEYS.find(([, envPath]) => envPath.join('.') === keyPath.join('.'));
  if (entry && valueAt(fromEnv(env), keyPath) !== undefined) return { kind: 'env', variable: entry[0] };
  const file = path.join(projectRoot, CONFIG_FILE_NAME);
  if (valueAt(readConfigFile(file), keyPath) !== undefined) return { kind: 'file', file };
  return { kind: 'default' };
}

/** The keys the schema allows in the object at `objectPath` (e.g. `['embedding']`); [] when there is none. */
function schemaKeys(objectPath: readonly string[]): string[] {
  let schema: z.ZodType = configSchema;
  for (const key of ['', ...objectPath]) {
    if (key !== '') {
      const shape = (schema as z.ZodType & { shape?: Record<string, z.ZodType> }).shape;
      if (!shape?.[key]) return [];
      schema = shape[key];
    }
    while (schema instanceof z.ZodDefault || schema instanceof z.ZodOptional) schema = schema.unwrap() as z.ZodType;
  }
  const shape = (schema as z.ZodType & { shape?: Record<string, z.ZodType> }).shape;
  return shape ? Object.keys(shape) : [];
}

/**
 * `CONFIG_INVALID` naming the file and every unknown key (so one edit fixes them all), each with the
 * nearest valid key when one is close, and the keys allowed where they stand.
 */
function unknownKeyError(file: string, unknown: readonly { objectPath: readonly string[]; key: string }[]): MonoragError {
  const named = unknown.map(({ objectPath, key }) => {
    const qualify = (name: string): string => [...objectPath, name].join('.');
    const nearest = nearestName(key, schemaKeys(objectPath));
    return `"${qualify(key)}"${nearest ? ` (did you mean "${qualify(nearest)}"?)` : ''}`;
  });
  const places = [...new Map(unknown.map(({ objectPath }) => [objectPath.join('.'), objectPath])).values()];
  const allowed = places.map((objectPath) => `${objectPath.length === 0 ? 'at the top level' : `in "${objectPath.join('.')}"`} are: ${schemaKeys(objectPath).join(', ')}`);
  return new MonoragError(
    ErrorCode.CONFIG_INVALID,
    `${file}: unknown key${named.length > 1 ? 's' : ''} ${named.join(', ')}. ` +
      `Remove or rename ${named.length > 1 ? 'them' : 'it'}; the keys allowed ${allowed.join('; the keys allowed ')}.`,
  );
}

/** The root package of this workspace, whose `monorag` script is `pnpm monorag`. */
const WORKSPACE_PACKAGE = 'monorag-workspace';

/**
 * The directory the user ran monorag in, which relative paths on its command line (and the default
 * project, `.`) mean. `pnpm monorag ...` runs the CLI with the monorag checkout as its working
 * directory, wherever it was typed (`pnpm --dir ~/monorag monorag index` in a project, or in a
 * subdirectory of the checkout), and pnpm and npm record the typing directory in `INIT_CWD`. That is
 * used only when the script running is this workspace's own `monorag` script (`npm_lifecycle_event`
 * `monorag`, `npm_package_name` `monorag-workspace`): a user's package script calling an installed
 * `monorag` keeps its working directory, as any command in a package script does.
 * @returns an absolute path.
 */
export function invocationDir(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): string {
  const own = env.npm_lifecycle_event === 'monorag' && env.npm_package_name === WORKSPACE_PACKAGE;
  return own && env.INIT_CWD ? path.resolve(cwd, env.INIT_CWD) : cwd;
}

/** Reads the log level alone, for use before a project root is known. */
export function logLevelFromEnv(env: Record<string, string | undefined> = process.env): string {
  return (env.MONORAG_LOG_LEVEL ?? 'warn').toLowerCase();
}
