import { beforeAll, describe, expect, it } from 'vitest';
import type { Chunker } from './chunker.js';
import { createChunker } from './create-chunker.js';

const lines = (rows: string[]): string => `${rows.join('\n')}\n`;
const ranges = (chunker: Chunker, path: string, text: string): Array<[number, number, string | null]> =>
  chunker.chunk(path, text).map((chunk) => [chunk.startLine, chunk.endLine, chunk.symbol]);

// A compiled class, as `tsc` emits it: the class line, then a method too large for one chunk.
const compiledClass = lines([
  'export class Store {',
  '    static open(path, options) {',
  '        const store = new Store(path, options);',
  '        store.entries = readEntries(path, options.encoding, options.limit);',
  '        store.index = buildIndex(store.entries, options.keyOf ?? defaultKeyOf);',
  '        store.listeners = [];',
  '        return store;',
  '    }',
  '    close() {',
  '        for (const listener of this.listeners) listener.onClose(this.path);',
  '        this.listeners = [];',
  '        this.entries = null;',
  '        this.index = null;',
  '        return flushPending(this.path, this.pending, { sync: true, mode: 0o600 });',
  '    }',
  '}',
]);

describe('fragments of split definitions join a neighbour', () => {
  let chunker80: Chunker;
  let chunker152: Chunker;
  beforeAll(async () => {
    chunker80 = await createChunker({ maxTokens: 80, specialTokens: 0 });
    chunker152 = await createChunker({ maxTokens: 152, specialTokens: 0 });
  });

  it('puts a class line alone before a large first method into that method\'s first chunk, never into a sibling\'s', () => {
    // Was [1, 1] `export class Store {` alone: a chunk that is all header and outranked the methods for `Store`.
    expect(ranges(chunker80, 'dist/store.js', compiledClass)).toEqual([
      [1, 4, 'open'],
      [5, 8, 'open'],
      [9, 13, 'close'],
      [14, 16, 'close'],
    ]);
    const chunks = chunker80.chunk('dist/store.js', compiledClass);
    expect(chunks[0]?.scopes).toEqual(['Store']);
    // The end of `open` (8) and the start of `close` (9) are in different chunks: a fragment never joins a sibling.
    expect(chunks.some((chunk) => chunk.startLine <= 8 && chunk.endLine >= 9)).toBe(false);
  });

  it('splits a function evenly between statements when its last statement cannot join the full part before it', () => {
    const text = lines([
      'function mergeOptions(defaults, options) {',
      '  const timeout = options.timeout ?? defaults.timeout;',
      '  const retries = options.retries ?? defaults.retries;',
      '  const headers = { ...defaults.headers, ...options.headers };',
      '  const signal = options.signal ?? defaults.signal;',
      '  const redirect = options.redirect ?? defaults.redirect;',
      '  const cache = options.cache ?? defaults.cache;',
      '  return merged;',
      '}',
    ]);
    // Filling greedily gave [1, 7] and [8, 9]: `return merged;` and the brace alone.
    expect(ranges(chunker152, 'lib/merge-options.js', text)).toEqual([
      [1, 4, 'mergeOptions'],
      [5, 9, 'mergeOptions'],
    ]);
  });

  it('keeps a whole small definition as a chunk of its own next to module code', async () => {
    const chunker = await createChunker({ maxTokens: 64, specialTokens: 0 });
    const text = lines([
      'const one = () => 1;',
      'configure({',
      '  retries: one(), timeout: 30_000, headers: { accept: "application/json", "user-agent": "demo" },',
      '  onRetry: (error, attempt) => console.warn(`retry ${attempt} after ${error.message}`),',
      '});',
    ]);
    // `one` is a definition, not a fragment: it stays a chunk of its own (the module code next to it would take it in).
    expect(ranges(chunker, 'lib/setup.js', text)[0]).toEqual([1, 1, 'one']);
  });
});
