import { readFileSync } from 'node:fs';
import type { Chunk } from '@monorag/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Chunker } from './chunker.js';
import { createChunker } from './create-chunker.js';
import { estimateTokens } from './estimate-tokens.js';
import { CHUNKER_VERSION } from './version.js';

// Code fixtures are stored as `<name>.txt` so that linters leave them alone; the chunker only sees the path it is given.
const fixture = (name: string): string =>
  readFileSync(new URL(`../test/fixtures/${/\.(md|txt)$/.test(name) ? name : `${name}.txt`}`, import.meta.url), 'utf8');

/** [startLine, endLine, kind, symbol, scopes joined by ' > '] */
type Row = [number, number, Chunk['kind'], string | null, string];
const rows = (chunks: Chunk[]): Row[] => chunks.map((c) => [c.startLine, c.endLine, c.kind, c.symbol, c.scopes.join(' > ')]);

// The golden ranges below were set for a budget of exactly maxTokens for header + content: no special tokens reserved.
let chunker: Chunker;
let small: Chunker;
beforeAll(async () => {
  chunker = await createChunker({ specialTokens: 0 });
  small = await createChunker({ maxTokens: 64, specialTokens: 0 });
});

describe('createChunker: TypeScript', () => {
  it('keeps a documented exported function whole with its JSDoc, and the small module code before it joins it', () => {
    const chunks = chunker.chunk('src/config.ts', fixture('documented-function.ts'));
    // The imports and the constant (1-4) are readConfig's preamble: alone they were a chunk of their own.
    expect(rows(chunks)).toEqual([
      [1, 19, 'function', 'readConfig', ''],
      [21, 23, 'function', 'isFile', ''],
    ]);
    const readConfig = chunks[0] as Chunk;
    expect(readConfig.content).toContain("const DEFAULT_ENCODING = 'utf8';\n\n/**\n * Reads a configuration file");
    expect(readConfig.header).toBe(
      'src/config.ts\nexport async function readConfig(path: string, encoding: BufferEncoding = DEFAULT_ENCODING): Promise<unknown> {',
    );
    expect(readConfig.language).toBe('typescript');
  });

  it('keeps a decorated class that fits as one class chunk, and splits it into members when it does not', () => {
    const text = fixture('decorated-class.ts');
    expect(rows(chunker.chunk('src/card.ts', text))).toEqual([[1, 25, 'class', 'UserCard', '']]);
    const chunks = chunkerWith(100).chunk('src/card.ts', text);
    expect(rows(chunks)).toEqual([
      [1, 1, 'module', null, ''],
      [3, 10, 'class', 'UserCard', ''],
      [12, 16, 'method', 'toggle', 'UserCard'],
      // The field after the last method (24-25, a fragment of the class) joins that method's chunk.
      [18, 25, 'method', 'onClick', 'UserCard'],
    ]);
    expect((chunks[1] as Chunk).header).toBe('src/card.ts\nexport class UserCard { [members: toggle, onClick]');
    expect((chunks[2] as Chunk).content.split('\n')[0]).toBe('  // Toggles the expanded state.');
    expect((chunks[3] as Chunk).content.split('\n')[0]).toBe("  @HostListener('click', ['$event'])");
  });

  it('chunks an interface, a type alias and an enum by kind', () => {
    expect(rows(chunker.chunk('src/types.ts', fixture('types.ts')))).toEqual([
      [1, 11, 'interface', 'SearchOptions', ''],
      [13, 20, 'type', 'SearchHit', ''],
      [22, 25, 'enum', 'Mode', ''],
    ]);
  });

  it('attaches overload signatures to their implementation', () => {
    const chunks = chunker.chunk('src/size.ts', fixture('overloads.ts'));
    expect(rows(chunks)).toEqual([[1, 10, 'function', 'parseSize', '']]);
    expect((chunks[0] as Chunk).header).toBe('src/size.ts\nexport function parseSize(value: string): number;');
  });

  it('splits a class too large for one chunk into a skeleton and member chunks', () => {
    const chunks = chunkerWith(100).chunk('src/client.ts', fixture('large-class.ts'));
    expect(rows(chunks)).toEqual([
      // The import (1), a fragment alone, joins the class skeleton after it.
      [1, 6, 'class', 'Client', ''],
      [8, 11, 'method', 'constructor', 'Client'],
      [13, 15, 'method', 'request', 'Client'],
      // The for statement (16-25) is over the limit: line windows that fit, each carrying the method's name;
      // `throw lastError` and the brace (26-27) join the last window (their own rows are small).
      [16, 19, 'method', 'request', 'Client'],
      [20, 27, 'method', 'request', 'Client'],
      [29, 31, 'method', 'get', 'Client'],
      [33, 36, 'method', 'post', 'Client'],
    ]);
    expect((chunks[3] as Chunk).header).toBe(
      'src/client.ts\nClient\nasync request(path: string, init: RequestInit = {}): Promise<Response> {',
    );
  });

  it('never cuts a statement that fits: a function over the limit splits around its long SQL statement', () => {
    // Estimated tokens with the function's header: the statement (3-19) 342, the whole function 423.
    const chunks = chunkerWith(360).chunk('src/report.ts', fixture('sql-query.ts'));
    expect(rows(chunks)).toEqual([
      [1, 2, 'function', 'monthlyReport', ''],
      [3, 19, 'function', 'monthlyReport', ''],
      [20, 21, 'function', 'monthlyReport', ''],
    ]);
  });

  it('cuts a statement over the limit into line windows that each fit, carrying the function\'s name', () => {
    const chunks = chunkerWith(100).chunk('src/report.ts', fixture('sql-query.ts'));
    expect(rows(chunks)).toEqual([
      [1, 2, 'function', 'monthlyReport', ''],
      [3, 5, 'function', 'monthlyReport', ''],
      [6, 6, 'function', 'monthlyReport', ''],
      [7, 9, 'function', 'monthlyReport', ''],
      [10, 11, 'function', 'monthlyReport', ''],
      [12, 13, 'function', 'monthlyReport', ''],
      [14, 19, 'function', 'monthlyReport', ''],
      [20, 21, 'function', 'monthlyReport', ''],
    ]);
    for (const chunk of chunks) expect(estimateTokens(`${chunk.header}\n${chunk.content}`), `${chunk.startLine}-${chunk.endLine}`).toBeLessThanOrEqual(100);
    expect((chunks[3] as Chunk).header).toBe('src/report.ts\nexport async function monthlyReport(db: Database, month: string): Promise<Row[]> {');
  });

  it('lets a small last part of a split function (`return obj` and the brace) join the piece before it', () => {
    const assignments = Array.from({ length: 40 }, (_, i) => `      obj.field${i} = headers[i + ${i}].toString('latin1')`).join('\n');
    const source = `function parseHeaders (headers, obj) {\n  if (obj === undefined) obj = {}\n\n  for (let i = 0; i < headers.length; i += 2) {\n    if (headers[i]) {\n${assignments}\n    }\n  }\n\n  return obj\n}\n`;
    // The loop is over the limit and is cut into windows; the two-line tail (49-50) used to be a chunk
    // of its own, all header and no code, which outranked the function's head for its own name.
    expect(rows(chunker.chunk('lib/util.js', source))).toEqual([
      [1, 2, 'function', 'parseHeaders', ''],
      [4, 13, 'function', 'parseHeaders', ''],
      [14, 22, 'function', 'parseHeaders', ''],
      [23, 31, 'function', 'parseHeaders', ''],
      [32, 40, 'function', 'parseHeaders', ''],
      [41, 50, 'function', 'parseHeaders', ''],
    ]);
  });

  it('attaches a doc comment to the definition below it across blank rows', () => {
    const source = `class Command {\n  /**\n   * Make a command with the given name.\n   */\n\n  constructor(name) {\n    this.name = name;\n    this.commands = [];\n  }\n\n  /**\n   * Throw a CommanderError instead of calling process.exit.\n   */\n\n  exitOverride(fn) {\n    this._exitCallback = fn;\n    return this;\n  }\n}\n`;
    // The blank row after each JSDoc used to leave it module code: the constructor's chunk ended with
    // exitOverride's doc, and a later doc could be a chunk alone, labelled with the class. The class
    // head (1) is a fragment too small to stand alone, and joins its first member.
    expect(rows(small.chunk('lib/command.js', source))).toEqual([
      [1, 9, 'method', 'constructor', 'Command'],
      [11, 19, 'method', 'exitOverride', 'Command'],
    ]);
  });

  it('joins a small run of module code (imports, \'use strict\') to the definition after it', () => {
    const go = `package main\n\nimport "fmt"\n\nfunc main() {\n\tnames := []string{"ada", "grace", "linus", "margaret", "barbara", "radia"}\n\tfor i, name := range names {\n\t\tfmt.Printf("%d: hello, %s, welcome to the service\\n", i, name)\n\t}\n}\n`;
    expect(rows(chunker.chunk('go/main.go', go))).toEqual([[1, 10, 'function', 'main', '']]);
    const js = `'use strict'\n\nconst path = require('node:path')\n\n/** Resolves a module path against the project root and checks that it stays inside it. */\nfunction resolveInside (root, file) {\n  const resolved = path.resolve(root, file)\n  if (!resolved.startsWith(root + path.sep)) throw new Error('outside the root: ' + file)\n  return resolved\n}\n\nmodule.exports = resolveInside\n`;
    // `module.exports = resolveInside` (12), module code too small to stand alone, joins the function before it.
    expect(rows(chunker.chunk('lib/resolve.js', js))).toEqual([[1, 12, 'function', 'resolveInside', '']]);
  });

  it('keeps a split function\'s head with the first piece of the statement after it', () => {
    const source = `function createArgsNormalizer (defaultOptions) {\n  return function normalizeArgs (instance, opts = {}, stream) {\n    if (typeof opts === 'string') {\n      stream = buildSafeSonicBoom({ dest: opts })\n      opts = {}\n    } else if (typeof stream === 'string') {\n      stream = buildSafeSonicBoom({ dest: stream })\n    }\n    opts = Object.assign({}, defaultOptions, opts)\n    return { opts, stream }\n  }\n}\n`;
    // `function createArgsNormalizer (defaultOptions) {` (1) used to be a chunk alone, all header.
    const chunks = chunkerWith(100).chunk('lib/tools.js', source);
    expect(rows(chunks)).toEqual([
      [1, 5, 'function', 'createArgsNormalizer', ''],
      [6, 12, 'function', 'createArgsNormalizer', ''],
    ]);
    expect((chunks[1] as Chunk).header).toBe('lib/tools.js\nfunction createArgsNormalizer (defaultOptions) {');
  });

  it('keeps a split function\'s head with its first statement, dropping the signature the piece then holds from its header', () => {
    const names = Array.from({ length: 8 }, (_, i) => `'policy${i}'`).join(', ');
    const source = `function describeRetryPolicy (attempts, baseDelayMs, maxDelayMs) {\n  const names = [${names}]\n  return names.map((name) => name + attempts)\n}\n`;
    // Head and statement fit only without the signature repeated in the header; the head used to be a chunk alone.
    const chunks = chunkerWith(100).chunk('lib/retry.js', source);
    expect(rows(chunks)).toEqual([
      [1, 2, 'function', 'describeRetryPolicy', ''],
      [3, 4, 'function', 'describeRetryPolicy', ''],
    ]);
    expect((chunks[0] as Chunk).header).toBe('lib/retry.js');
    expect((chunks[0] as Chunk).content.startsWith('function describeRetryPolicy (attempts, baseDelayMs, maxDelayMs) {\n  const names')).toBe(true);
    expect((chunks[1] as Chunk).header).toBe('lib/retry.js\nfunction describeRetryPolicy (attempts, baseDelayMs, maxDelayMs) {');
  });

  it('lets the small tail of a function (`return w` and the brace) join the last piece of its split callback', () => {
    const handler = Array.from({ length: 8 }, (_, i) => `    if (error.code === 'E${i}') log.warn({ code: error.code }, 'watch error ${i}')`).join('\n');
    const source = `function start (root) {\n  const w = watch(root, { persistent: true })\n  w.on('error', (error) => {\n${handler}\n    log.warn({ err: error.message }, 'watcher error')\n  })\n  return w\n}\n`;
    // `return w` and `}` (14-15) used to be a chunk alone: the piece before it was the callback's, not the function's.
    expect(rows(chunkerWith(80).chunk('lib/watch.js', source)).slice(-2)).toEqual([
      [11, 11, 'module', null, 'start'],
      [12, 15, 'module', null, 'start'],
    ]);
  });

  it('still chunks a file with a syntax error', () => {
    const chunks = chunker.chunk('src/broken.ts', fixture('syntax-error.ts'));
    expect(rows(chunks)).toEqual([[1, 9, 'module', 'ok', '']]);
    expect(rows(small.chunk('src/broken.ts', fixture('syntax-error.ts')))).toEqual([
      [1, 3, 'function', 'ok', ''],
      [5, 9, 'function', 'broken', ''],
    ]);
  });
});

describe('createChunker: JavaScript and TSX', () => {
  it('names CommonJS exports, prototype methods and object-literal methods', () => {
    const text = fixture('commonjs.js');
    expect(rows(chunker.chunk('lib/router.js', text))).toEqual([
      [1, 11, 'function', 'joinRoute', ''],
      [13, 17, 'function', 'Router', ''],
      [19, 23, 'method', 'add', 'Router'],
      [25, 28, 'method', 'match', 'Router'],
      [30, 42, 'module', 'handlers', ''],
    ]);
    expect(rows(chunkerWith(80).chunk('lib/router.js', text)).slice(-5)).toEqual([
      // notFound (31-34) is just over 80: split between its two statements; the object's head
      // (`const handlers = {`, 30), too small to stand alone, joins its first member.
      [30, 32, 'method', 'notFound', 'handlers'],
      [33, 34, 'method', 'notFound', 'handlers'],
      [35, 36, 'method', 'error', 'handlers'],
      [37, 39, 'method', 'error', 'handlers'],
      [41, 42, 'module', null, ''],
    ]);
  });

  it('chunks a React component and an arrow-function component', () => {
    const chunks = chunker.chunk('web/Counter.tsx', fixture('component.tsx'));
    expect(rows(chunks)).toEqual([
      [1, 6, 'interface', 'CounterProps', ''],
      [8, 17, 'function', 'Counter', ''],
      [19, 19, 'function', 'Badge', ''],
    ]);
    expect((chunks[1] as Chunk).language).toBe('tsx');
  });
});

describe('createChunker: Python', () => {
  it('keeps decorators, comments and docstrings with their definitions; nests scopes', () => {
    const chunks = chunker.chunk('app/service.py', fixture('service.py'));
    expect(rows(chunks)).toEqual([
      [1, 21, 'function', 'load_settings', ''],
      // The class head, docstring and attribute (24-27) are too small to stand alone: they join the first method.
      [24, 32, 'method', '__init__', 'Repository'],
      [34, 37, 'method', 'add', 'Repository'],
      [39, 45, 'class', 'Cursor', 'Repository'],
    ]);
    expect((chunks[0] as Chunk).content.split('\n').slice(7, 10)).toEqual([
      '# Caches results for the process lifetime.',
      '@functools.lru_cache(maxsize=128)',
      '@staticmethod',
    ]);
    expect((chunks[0] as Chunk).header).toBe('app/service.py\ndef load_settings(path: str) -> dict:');
    expect((chunks[3] as Chunk).header).toBe('app/service.py\nRepository\nclass Cursor:');
  });

  it('keeps the definitions after an unclosed bracket (a line being typed): the error\'s rows are left out of the parse, not the file', () => {
    const body = (name: string): string => [`def ${name}(records, limit):`, `    """${name.replace(/_/g, ' ')} of the records."""`, ...Array.from({ length: 14 }, (_, i) => `    total_${i} = sum(r.value_${i} for r in records if r.limit > limit)`), '    return total_0'].join('\n');
    const file = [body('first_total'), '', 'print((first_total([], 1),', '', '', body('second_total'), '', '', '@register', `class LaterReport:`, '    def render(self):', '        return second_total([], 2)', ''].join('\n');
    const analysis = chunker.analyse('app/report.py', file);
    const definitions = analysis.symbols.filter((symbol) => symbol.role === 'definition').map((symbol) => `${symbol.name} ${symbol.startLine}-${symbol.endLine}`);
    expect(definitions).toEqual(['first_total 1-17', 'second_total 22-38', 'LaterReport 41-44', 'render 43-44']);
    // The same chunks as once the line is finished; the unclosed line (19) is still in one (every non-blank line is).
    const fixed = chunker.analyse('app/report.py', file.replace('print((first_total([], 1),', 'print((first_total([], 1)))'));
    expect(rows(analysis.chunks)).toEqual(rows(fixed.chunks));
    expect(rows(analysis.chunks)).toEqual([
      [1, 9, 'function', 'first_total', ''],
      [10, 19, 'function', 'first_total', ''],
      [22, 30, 'function', 'second_total', ''],
      [31, 38, 'function', 'second_total', ''],
      [41, 44, 'class', 'LaterReport', ''],
    ]);
    expect(analysis.chunks[1]?.content.split('\n').at(-1)).toBe('print((first_total([], 1),');
  });

  it('keeps a split function\'s signature with the first window of its long docstring', () => {
    const doc = [
      'Convenience function that returns a logger according to configuration.',
      '',
      '>>> from structlog import get_logger',
      '>>> log = get_logger(y=23)',
      '>>> log.info("hello", x=42)',
      "y=23 x=42 event='hello'",
      '',
      'Args:',
      '    args: Optional positional arguments that are passed unmodified to the',
      '        logger factory. Therefore it depends on the factory what they mean.',
      '    initial_values: Values that are used to pre-populate your contexts.',
      '',
      'Returns:',
      '    A proxy that creates a correctly configured bound logger when',
      '    necessary. The type of that bound logger depends on your configuration.',
    ].map((line) => (line ? `    ${line}` : ''));
    const source = ['def get_logger(*args, **initial_values):', '    """', ...doc, '    """', '    return wrap_logger(None, logger_factory_args=args, **initial_values)', ''].join('\n');
    // The signature row (1) used to be a chunk alone, all header, before the docstring's windows.
    expect(rows(chunkerWith(100).chunk('app/log.py', source))).toEqual([
      [1, 6, 'function', 'get_logger', ''],
      [7, 12, 'function', 'get_logger', ''],
      [13, 18, 'function', 'get_logger', ''],
      [19, 19, 'function', 'get_logger', ''],
    ]);
  });

  it('splits a nested class into its own members when small chunks are asked for', () => {
    expect(rows(small.chunk('app/service.py', fixture('service.py'))).slice(-3)).toEqual([
      [39, 40, 'class', 'Cursor', 'Repository'],
      [42, 42, 'method', '__init__', 'Repository > Cursor'],
      [43, 45, 'method', '__init__', 'Repository > Cursor'],
    ]);
  });
});

describe('createChunker: Markdown and windows', () => {
  it('chunks Markdown by heading sections, ignoring # inside fenced code', () => {
    const chunks = chunker.chunk('docs/guide.md', fixture('guide.md'));
    expect(rows(chunks)).toEqual([
      [1, 3, 'section', 'Monorag', ''],
      [5, 12, 'section', 'Install', 'Monorag'],
      [14, 18, 'section', 'Index', 'Monorag > Usage'],
      [20, 21, 'section', 'Search', 'Monorag > Usage'],
      [23, 26, 'section', 'Setext title', ''],
    ]);
    expect((chunks[2] as Chunk).header).toBe('docs/guide.md\nMonorag > Usage\n### Index');
  });

  it('a run of title-only sibling headings shares the section of the description that follows them', () => {
    const text = [
      '## API', '', '### get(input)', '### post(input)', '### put(input)', '', 'Sets the method and makes a request.', '',
      '### options', '', 'Type: object', '',
    ].join('\n');
    expect(rows(chunker.chunk('readme.md', text))).toEqual([
      [1, 7, 'section', 'put(input)', 'API'],
      [9, 11, 'section', 'options', 'API'],
    ]);
  });

  it('splits a large section into windows at blank lines', () => {
    const paragraph = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.';
    const text = ['# Big', '', ...Array.from({ length: 6 }, () => [paragraph, paragraph, '']).flat()].join('\n');
    expect(rows(small.chunk('BIG.md', text))).toEqual([
      [1, 4, 'section', 'Big', ''],
      [6, 7, 'section', 'Big', ''],
      [9, 10, 'section', 'Big', ''],
      [12, 13, 'section', 'Big', ''],
      [15, 16, 'section', 'Big', ''],
      [18, 19, 'section', 'Big', ''],
    ]);
  });

  it('chunks unknown text by line windows, preferring blank lines', () => {
    expect(rows(chunker.chunk('notes.txt', fixture('notes.txt')))).toEqual([[1, 10, 'window', null, '']]);
    expect(rows(chunkerWith(20).chunk('notes.txt', fixture('notes.txt')))).toEqual([
      [1, 1, 'window', null, ''],
      [3, 5, 'window', null, ''],
      [6, 7, 'window', null, ''],
      [9, 10, 'window', null, ''],
    ]);
  });

  it('splits the rows of the last two windows evenly instead of leaving a line alone', () => {
    const notes = Array.from({ length: 9 }, (_, i) => `line ${i} of the notes about the release plan`).join('\n');
    // Filling each window greedily gave [1, 8] and [9, 9].
    expect(rows(chunkerWith(100).chunk('notes.txt', notes))).toEqual([
      [1, 4, 'window', null, ''],
      [5, 9, 'window', null, ''],
    ]);
  });

  it('gives [] for empty and blank files', () => {
    expect(chunker.chunk('a.ts', '')).toEqual([]);
    expect(chunker.chunk('a.py', '\n\n   \n\t\n')).toEqual([]);
    expect(chunker.chunk('a.md', '\n\n')).toEqual([]);
  });
});

describe('createChunker: contract', () => {
  it('reports its version, naming the token counter, and languages', async () => {
    expect(chunker.version).toBe(`${CHUNKER_VERSION}+estimate`);
    expect((await createChunker({ counterId: 'wordpiece-30522' })).version).toBe(`${CHUNKER_VERSION}+wordpiece-30522`);
    expect(chunker.languageOf('x/y.py', '')).toBe('python');
  });

  it('computes ids and hashes from the documented fields', async () => {
    const { sha256 } = await import('@monorag/shared');
    const [chunk] = chunker.chunk('src/size.ts', fixture('overloads.ts'));
    expect(chunk?.contentHash).toBe(sha256(`${chunk?.header}\n${chunk?.content}`));
    expect(chunk?.id).toBe(sha256(`src/size.ts:1:10:${chunk?.contentHash}`).slice(0, 32));
  });

  it('rejects a bad maxTokens or specialTokens', async () => {
    await expect(createChunker({ maxTokens: 0 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(createChunker({ maxTokens: 64, specialTokens: 64 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(createChunker({ specialTokens: -1 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('reserves the special tokens ([CLS], [SEP]: 2 by default) out of maxTokens', async () => {
    const text = fixture('sql-query.ts');
    const reserving = await createChunker({ maxTokens: 102 });
    expect(rows(reserving.chunk('src/report.ts', text))).toEqual(rows(chunkerWith(100).chunk('src/report.ts', text)));
  });
});

const byLimit = new Map<number, Chunker>();
beforeAll(async () => {
  for (const limit of [20, 80, 100, 360]) byLimit.set(limit, await createChunker({ maxTokens: limit, specialTokens: 0 }));
});
function chunkerWith(limit: number): Chunker {
  const found = byLimit.get(limit);
  if (!found) throw new Error(`no chunker with maxTokens ${limit}`);
  return found;
}
