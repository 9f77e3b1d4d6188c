import { readFileSync } from 'node:fs';
import type { Chunk } from '@monorag/shared';
import type { Node, Parser } from 'web-tree-sitter';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Chunker } from './chunker.js';
import { createChunker } from './create-chunker.js';
import { ECMASCRIPT_TESTS } from './languages/typescript.js';
import { loadGrammar } from './load-grammar.js';
import { testTitle } from './test-title.js';

const fixture = (name: string): string => readFileSync(new URL(`../test/fixtures/${name}.txt`, import.meta.url), 'utf8');

/** [startLine, endLine, kind, symbol, scopes joined by ' > '] */
type Row = [number, number, Chunk['kind'], string | null, string];
const rows = (chunks: Chunk[]): Row[] => chunks.map((c) => [c.startLine, c.endLine, c.kind, c.symbol, c.scopes.join(' > ')]);

let parser: Parser;
let chunker: Chunker;
let chunker80: Chunker;
beforeAll(async () => {
  parser = await loadGrammar('tree-sitter-typescript.wasm');
  chunker = await createChunker({ specialTokens: 0 });
  chunker80 = await createChunker({ maxTokens: 80, specialTokens: 0 });
});

/** The title `testTitle` reads from the call of a one-statement program (`await` looked through), or null. */
function titleOf(source: string): string | null {
  const statement = parser.parse(source)?.rootNode.namedChild(0);
  let call: Node | null | undefined = statement?.namedChild(0);
  if (call?.type === 'await_expression') call = call.namedChild(0);
  if (!call || call.type !== 'call_expression') throw new Error(`no call in ${source}`);
  return testTitle(call, ECMASCRIPT_TESTS)?.title ?? null;
}

describe('testTitle', () => {
  it('reads the literal title of test functions, their modifiers and t.test', () => {
    const calls: [string, string][] = [
      ["it('retries on 503', () => {})", 'retries on 503'],
      ['describe("Pool", function () {})', 'Pool'],
      ["test.skip('a', () => {})", 'a'],
      ["it.only('b', async () => {})", 'b'],
      ["test.concurrent.only('c', async () => {})", 'c'],
      ["describe.each([[1, 2]])('adds %i', (a) => {})", 'adds %i'],
      ["it.each`a | b`('adds $a', ({ a }) => {})", 'adds $a'],
      ["test.skipIf(isWindows)('posix paths', () => {})", 'posix paths'],
      ["await t.test('unsupported route', async (t) => {})", 'unsupported route'],
      ["tap.test('tap', (t) => {})", 'tap'],
      ["t.describe('nested', () => {})", 'nested'],
      ["test.describe.parallel('playwright', () => {})", 'playwright'],
      ["test.step('log in', async () => {})", 'log in'],
      ["Deno.test('deno', () => {})", 'deno'],
      ["suite('s', () => {})", 's'],
      ["context('when empty', () => {})", 'when empty'],
      ["specify('sp', () => {})", 'sp'],
      ["xit('excluded', () => {})", 'excluded'],
      ["bench('sort 1000 numbers', () => {})", 'sort 1000 numbers'],
      ['test(`closing`, () => {})', 'closing'],
      ["test('it\\'s \\u00e9\\tdone', () => {})", "it's é done"],
      ['test(`a long\n    title`, () => {})', 'a long title'],
    ];
    for (const [source, title] of calls) expect(titleOf(source), source).toBe(title);
  });

  it('is null for other callees and for titles that are not a non-empty literal', () => {
    const calls = [
      'test(name, () => {})',
      'test(`GET ${path}`, () => {})',
      "test('', () => {})",
      "test('   ', () => {})",
      "app.get('/x', (req, reply) => {})",
      "emitter.on('error', (err) => {})",
      'setTimeout(() => {}, 10)',
      "it.foo('x', () => {})",
      "this.test('x', () => {})",
      "t.tests('x', () => {})",
      "test.beforeEach('x', () => {})",
      "testing('x', () => {})",
    ];
    for (const source of calls) expect(titleOf(source), source).toBeNull();
  });
});

describe('test callbacks in chunks and the symbol table', () => {
  it('names a small test file chunk by chunk: tests are definitions, module code and non-test callbacks are not', () => {
    // 256 tokens: each top-level test is one chunk; `test(name, ...)` (non-literal) and `app.get(...)` stay module
    // code, grouped after `default 404`, whose group it is (a group's symbol is its one definition).
    expect(rows(chunker.chunk('test/pool.test.js', fixture('pool.test.js')))).toEqual([
      [1, 5, 'module', null, ''],
      [7, 24, 'test', 'Pool', ''],
      [26, 28, 'test', 'adds %i + %i', ''],
      [30, 46, 'test', 'default 404', ''],
    ]);
  });

  it('names a group of small tests after the first (kind test), and a group mixing tests and functions a module', () => {
    const tests = "test('adds', () => ok(add(1)))\ntest('subtracts', () => ok(sub(1)))\n";
    expect(rows(chunker.chunk('test/math.test.js', tests))).toEqual([[1, 2, 'test', 'adds', '']]);
    expect(rows(chunker.chunk('test/math.test.js', `${tests}function add (a) { return a }\n`))).toEqual([[1, 3, 'module', 'adds', '']]);
    expect(chunker.analyse('test/math.test.js', tests).symbols.filter((s) => s.role === 'definition').map((s) => `${s.kind} ${s.name}`)).toEqual([
      'test adds',
      'test subtracts',
    ]);
  });

  it('splits a test holding tests like a class (its tests scoped by its title) and other tests like functions', () => {
    const chunks = chunker80.chunk('test/pool.test.js', fixture('pool.test.js'));
    expect(rows(chunks)).toEqual([
      [1, 5, 'module', null, ''],
      // `describe('Pool', () => {` and its constant: the skeleton, named like a class's, listing its tests.
      [7, 8, 'test', 'Pool', ''],
      // A test over the limit splits between statements, every piece keeping its title (as a split function's name).
      [10, 11, 'test', 'retries on 503', 'Pool'],
      [12, 12, 'test', 'retries on 503', 'Pool'],
      [13, 15, 'test', 'retries on 503', 'Pool'],
      // `describe(`closing`, () => {` alone is a fragment: it joins the first piece of the test in it, under its title.
      [17, 20, 'test', 'rejects new requests', 'Pool > closing'],
      [21, 24, 'test', 'rejects new requests', 'Pool > closing'],
      [26, 26, 'test', 'adds %i + %i', ''],
      [27, 28, 'test', 'adds %i + %i', ''],
      [30, 31, 'test', 'default 404', ''],
      [33, 34, 'test', 'unsupported method', 'default 404'],
      [35, 37, 'test', 'unsupported method', 'default 404'],
      [39, 46, 'module', null, ''],
    ]);
    const header = (line: number): string => chunks.find((c) => c.startLine === line)?.header ?? '';
    expect(header(7)).toBe("test/pool.test.js\ndescribe('Pool', () => { [members: retries on 503, closing]");
    expect(header(17)).toBe("test/pool.test.js\nPool > closing\nit.only('rejects new requests', async () => {");
    expect(header(33)).toBe("test/pool.test.js\ndefault 404\nawait t.test('unsupported method', async (t) => {");
  });

  it('lists tests as definitions of kind test, nested ones enclosed by the titles around them, and calls inside them by test', () => {
    const symbols = chunker.analyse('test/pool.test.js', fixture('pool.test.js')).symbols;
    const definitions = symbols.filter((s) => s.role === 'definition').map((s) => `${s.kind} ${s.name} ${s.startLine}-${s.endLine} ${s.enclosing ?? '-'}`);
    expect(definitions).toEqual([
      'test Pool 7-24 -',
      'test retries on 503 10-15 Pool',
      'test closing 17-23 Pool',
      'test rejects new requests 18-22 Pool > closing',
      'test adds %i + %i 26-28 -',
      'test default 404 30-37 -',
      'test unsupported method 33-36 default 404',
      'constant name 39-39 -',
    ]);
    const referencesOf = (name: string): string[] => symbols.filter((s) => s.role === 'reference' && s.name === name).map((s) => `${s.startLine} ${s.enclosing ?? '-'}`);
    expect(referencesOf('Pool')).toEqual(['5 -', '11 Pool > retries on 503', '19 Pool > closing > rejects new requests']);
    expect(referencesOf('inject')).toEqual(['34 default 404 > unsupported method']);
    // Not in a test: the callbacks of `test(name, ...)` and `app.get(...)` are no scopes.
    expect(referencesOf('run')).toEqual(['41 -']);
    expect(referencesOf('send')).toEqual(['45 -']);
  });

  it('keeps non-test callbacks and awaited calls as they were: module code, unnamed, split like a function', () => {
    const handler = Array.from({ length: 12 }, (_, i) => `  if (err.code === 'E${i}') log.warn({ code: err.code }, 'socket error ${i}')`).join('\n');
    const source = [
      `emitter.on('error', (err) => {\n${handler}\n});`,
      `setTimeout(() => {\n${handler.replaceAll('err', 'state')}\n}, 10);`,
      `(function () {\n${handler.replaceAll('err', 'boot')}\n})();`,
      `await retry(async () => {\n${handler.replaceAll('err', 'res')}\n});`,
    ].join('\n\n');
    const chunks = chunker80.chunk('lib/events.js', source);
    // Lines 1-44 hold the three callbacks, split between statements as module code under their call's line;
    // `await retry(...)` (46-59) is no callback: a statement over the limit at module level, cut into line windows.
    const callbacks = chunks.filter((c) => c.endLine <= 44);
    expect(callbacks.every((c) => c.kind === 'module' && c.symbol === null && c.scopes.length === 0)).toBe(true);
    expect([...new Set(callbacks.map((c) => c.header))]).toEqual([
      "lib/events.js\nemitter.on('error', (err) => {",
      'lib/events.js\nsetTimeout(() => {',
      'lib/events.js\n(function () {',
    ]);
    const awaited = chunks.filter((c) => c.startLine >= 46);
    expect(awaited.map((c) => [c.startLine, c.endLine, c.kind, c.symbol])).toEqual(
      [46, 48, 50, 52, 54, 56, 58].map((line) => [line, line + 1, 'window', null]),
    );
    expect(chunker.analyse('lib/events.js', source).symbols.filter((s) => s.role === 'definition')).toEqual([]);
  });

  it('applies to TypeScript and to Vue script blocks, not to other languages', () => {
    const ts = "import { describe, it } from 'vitest'\n\ndescribe('Queue', () => {\n  it('drains', () => {\n    expect(queue.drain()).toBe(0)\n  })\n})\n";
    expect(rows(chunker.chunk('src/queue.test.ts', ts))).toEqual([[1, 7, 'test', 'Queue', '']]);
    const vue = `<template><p>hi</p></template>\n<script>\n${ts}</script>\n`;
    const inVue = chunker.analyse('src/Queue.vue', vue).symbols.filter((s) => s.role === 'definition');
    expect(inVue.map((s) => `${s.kind} ${s.name} ${s.enclosing ?? '-'}`)).toEqual(['test Queue -', 'test drains Queue']);
    // Ruby's `describe 'x' do ... end` and a Python call are not read as tests.
    expect(chunker.analyse('spec/queue_spec.rb', "describe 'Queue' do\n  it 'drains' do\n  end\nend\n").symbols.some((s) => s.kind === 'test')).toBe(false);
    expect(chunker.analyse('t.py', "test('x', lambda: None)\n").symbols.some((s) => s.kind === 'test')).toBe(false);
  });
});
