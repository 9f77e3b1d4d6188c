import { readFileSync } from 'node:fs';
import type { Chunk } from '@monorag/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Chunker } from './chunker.js';
import { createChunker } from './create-chunker.js';

// Code fixtures are stored as `<name>.txt` so that linters leave them alone; the chunker sees the real name.
const fixture = (name: string): string => {
  const url = new URL(`../test/fixtures/${name}`, import.meta.url);
  try {
    return readFileSync(new URL(`${url.href}.txt`), 'utf8');
  } catch {
    return readFileSync(url, 'utf8');
  }
};

/** [startLine, endLine, kind, symbol, scopes joined by ' > '] */
type Row = [number, number, Chunk['kind'], string | null, string];
const rows = (chunks: Chunk[]): Row[] => chunks.map((c) => [c.startLine, c.endLine, c.kind, c.symbol, c.scopes.join(' > ')]);
const firstLine = (chunks: Chunk[], symbol: string): string =>
  chunks.find((chunk) => chunk.symbol === symbol)?.content.split('\n')[0] ?? '(none)';

let chunker: Chunker;
let small: Chunker;
let tiny: Chunker;
beforeAll(async () => {
  // Golden ranges set for a budget of exactly maxTokens for header + content (no special tokens reserved).
  chunker = await createChunker({ maxTokens: 256, specialTokens: 0 });
  small = await createChunker({ maxTokens: 64, specialTokens: 0 });
  tiny = await createChunker({ maxTokens: 30, specialTokens: 0 });
});

describe('syntax languages beyond TypeScript and Python (maxTokens 64)', () => {
  it('loads every grammar of the registry', () => {
    expect([...chunker.unavailableGrammars]).toEqual([]);
  });

  it('Go: documented types, functions, and methods scoped by their receiver', () => {
    const chunks = small.chunk('server/server.go', fixture('server.go'));
    expect(rows(chunks)).toEqual([
      [1, 6, 'module', null, ''],
      [8, 11, 'class', 'Server', ''],
      [13, 16, 'interface', 'Handler', ''],
      [18, 21, 'function', 'NewServer', ''],
      [23, 25, 'method', 'Start', 'Server'],
      [26, 27, 'method', 'Start', 'Server'],
    ]);
    expect(firstLine(chunks, 'NewServer')).toBe('// NewServer returns a server bound to addr.');
    expect(chunks.every((chunk) => chunk.language === 'go')).toBe(true);
  });

  it('Rust: doc comments and attributes attach; impl members are methods of the type', () => {
    const chunks = small.chunk('src/parser.rs', fixture('parser.rs'));
    expect(rows(chunks)).toEqual([
      [1, 8, 'enum', 'Token', ''],
      [10, 15, 'class', 'Lexer', ''],
      [16, 19, 'method', 'new', 'Lexer'],
      [21, 24, 'method', 'tokens', 'Lexer'],
      [26, 28, 'interface', 'Visitor', ''],
      [30, 31, 'function', 'tokenize', ''],
      [32, 33, 'function', 'tokenize', ''],
    ]);
    // The `use` line (1) and the `impl Lexer {` head (15), each too small to stand alone, join the definition next to them.
    expect(chunks[0]?.content.split('\n').slice(2, 4)).toEqual(['/// A parsed token.', '#[derive(Debug, Clone)]']);
  });

  it('Java: Javadoc and annotations stay with their members; nested enum is scoped', () => {
    const chunks = small.chunk('src/Cache.java', fixture('Cache.java'));
    expect(rows(chunks)).toEqual([
      [1, 4, 'module', null, ''],
      [6, 9, 'class', 'Cache', ''],
      [10, 10, 'class', 'Cache', ''],
      [12, 15, 'method', 'get', 'Cache'],
      [17, 20, 'method', 'toString', 'Cache'],
      [22, 24, 'enum', 'Policy', 'Cache'],
      [26, 28, 'interface', 'Loader', ''],
    ]);
    expect(firstLine(chunks, 'toString')).toBe('    @Override');
    expect(chunks[1]?.header).toBe('src/Cache.java\npublic class Cache<K, V> { [members: get, toString, Policy]');
  });

  it('C and C++: names through declarators, structs, typedefs, namespaces and classes', () => {
    expect(rows(small.chunk('src/list.c', fixture('list.c')))).toEqual([
      [1, 2, 'module', null, ''],
      [4, 8, 'class', 'node', ''],
      [10, 10, 'type', 'node_t', ''],
      [12, 13, 'function', 'list_push', ''],
      [14, 18, 'function', 'list_push', ''],
      [20, 21, 'function', 'list_length', ''],
      [22, 24, 'function', 'list_length', ''],
    ]);
    expect(rows(small.chunk('src/shapes.cpp', fixture('shapes.cpp')))).toEqual([
      [1, 4, 'module', 'geometry', ''],
      [6, 11, 'class', 'Shape', 'geometry'],
      [13, 15, 'method', 'Circle', 'geometry > Circle'],
      [16, 16, 'method', 'area', 'geometry > Circle'],
      [18, 20, 'class', 'Circle', 'geometry'],
      [22, 23, 'function', 'total_area', 'geometry'],
      [24, 27, 'function', 'total_area', 'geometry'],
      [29, 31, 'function', 'Describe', ''],
    ]);
  });

  it('C#: namespaces, XML doc comments and attributes', () => {
    const chunks = small.chunk('src/Account.cs', fixture('Account.cs'));
    expect(rows(chunks)).toEqual([
      [1, 5, 'module', null, ''],
      [6, 9, 'class', 'Account', 'Bank'],
      [11, 14, 'method', 'Deposit', 'Bank > Account'],
      [15, 16, 'method', 'Deposit', 'Bank > Account'],
      [18, 19, 'method', 'Credit', 'Bank > Account'],
      [21, 24, 'interface', 'IAudit', 'Bank'],
      [26, 27, 'enum', 'Currency', 'Bank'],
    ]);
    expect(chunks[2]?.content.split('\n').slice(0, 2)).toEqual(['        /// <summary>Adds money.</summary>', '        [Obsolete("Use Credit")]']);
  });

  it('Ruby, PHP and Bash', () => {
    expect(rows(small.chunk('lib/greeter.rb', fixture('greeter.rb')))).toEqual([
      [1, 5, 'module', 'Greeting', ''],
      [6, 11, 'method', 'initialize', 'Greeting > Greeter'],
      [13, 16, 'method', 'greet', 'Greeting > Greeter'],
      [18, 22, 'method', 'default', 'Greeting > Greeter'],
      [24, 26, 'function', 'shout', ''],
    ]);
    const php = small.chunk('src/Router.php', fixture('Router.php'));
    expect(rows(php)).toEqual([
      [1, 5, 'module', null, ''],
      [7, 12, 'class', 'Router', ''],
      [14, 16, 'method', 'add', 'Router'],
      [17, 18, 'method', 'add', 'Router'],
      [20, 22, 'method', 'dispatch', 'Router'],
      [23, 25, 'method', 'dispatch', 'Router'],
      [27, 30, 'function', 'route_name', ''],
    ]);
    expect(firstLine(php, 'dispatch')).toBe('    #[Deprecated]');
    expect(rows(small.chunk('deploy.sh', fixture('deploy.sh')))).toEqual([
      [1, 7, 'function', 'log', ''],
      [9, 13, 'function', 'build', ''],
      [15, 21, 'function', 'deploy', ''],
    ]);
  });

  it('Kotlin, Swift, Scala, Lua, Elixir and Dart', () => {
    expect(rows(small.chunk('Store.kt', fixture('Store.kt')))).toEqual([
      [1, 5, 'module', null, ''],
      [6, 7, 'class', 'Store', ''],
      [9, 12, 'method', 'put', 'Store'],
      [14, 15, 'method', 'get', 'Store'],
      [17, 17, 'class', 'Entry', ''],
      [19, 21, 'class', 'Backend', ''],
      [23, 25, 'function', 'openStore', ''],
    ]);
    expect(rows(small.chunk('Queue.swift', fixture('Queue.swift')))).toEqual([
      [1, 5, 'class', 'Queue', ''],
      [7, 10, 'method', 'push', 'Queue'],
      [12, 15, 'method', 'pop', 'Queue'],
      [17, 19, 'interface', 'Drainable', ''],
      [21, 25, 'class', 'Worker', ''],
      [27, 29, 'function', 'makeQueue', ''],
    ]);
    expect(rows(small.chunk('Stack.scala', fixture('Stack.scala')))).toEqual([
      [1, 3, 'module', null, ''],
      [5, 7, 'class', 'Stack', ''],
      [9, 12, 'method', 'push', 'Stack'],
      [14, 15, 'method', 'pop', 'Stack'],
      [17, 19, 'class', 'Stack', ''],
      [21, 23, 'interface', 'Sized', ''],
    ]);
    expect(rows(small.chunk('util.lua', fixture('util.lua')))).toEqual([
      // `local M = {}` is the preamble of the first definition after it.
      [1, 6, 'method', 'join', 'M'],
      [8, 10, 'function', 'trim', ''],
      [12, 20, 'method', 'words', 'M'],
    ]);
    expect(rows(small.chunk('lib/math.ex', fixture('math.ex')))).toEqual([
      [1, 7, 'function', 'add', 'MyApp.Math'],
      [9, 9, 'function', 'square', 'MyApp.Math'],
      [11, 14, 'function', 'sum_squares', 'MyApp.Math'],
    ]);
    expect(rows(small.chunk('lib/counter.dart', fixture('counter.dart')))).toEqual([
      [1, 1, 'module', null, ''],
      [3, 13, 'class', 'Counter', ''],
      [15, 15, 'enum', 'Color', ''],
      [17, 19, 'function', 'randomCount', ''],
    ]);
  });

  it('groups small definitions at the default limit', () => {
    expect(rows(chunker.chunk('server/server.go', fixture('server.go')))).toEqual([
      [1, 21, 'module', 'Server', ''],
      [23, 27, 'method', 'Start', 'Server'],
    ]);
  });
});

describe('documents, data files and components', () => {
  it('chunks a Vue <script lang="ts"> block as TypeScript and the rest by windows', () => {
    const analysis = chunker.analyse('web/Counter.vue', fixture('Counter.vue'));
    expect(analysis.fallback).toBe(null);
    expect(rows(analysis.chunks)).toEqual([
      [1, 5, 'window', null, ''],
      [6, 12, 'function', 'useCounter', ''],
      [14, 14, 'module', null, ''],
      [15, 19, 'window', null, ''],
    ]);
    expect(analysis.language).toBe('vue');
    expect(rows(chunker.chunk('web/Counter.svelte', fixture('Counter.vue')))[1]).toEqual([6, 12, 'function', 'useCounter', '']);
  });

  it('chunks reStructuredText by section titles with over- and underlines', () => {
    expect(rows(tiny.chunk('docs/guide.rst', fixture('guide.rst')))).toEqual([
      [1, 5, 'section', 'Guide', ''],
      [7, 10, 'section', 'Install', 'Guide'],
      [12, 15, 'section', 'Options', 'Guide > Install'],
      [17, 20, 'section', 'Usage', 'Guide'],
    ]);
  });

  it('chunks JSON, YAML and TOML by top-level key, grouping small keys', () => {
    expect(rows(tiny.chunk('package.json', fixture('package.json')))).toEqual([
      [1, 2, 'section', 'name', ''],
      [3, 3, 'section', 'version', ''],
      [4, 5, 'section', 'scripts', ''],
      [6, 7, 'section', 'scripts', ''],
      [8, 8, 'section', 'dependencies', ''],
      [9, 11, 'section', 'dependencies', ''],
    ]);
    expect(rows(chunker.chunk('package.json', fixture('package.json')))).toEqual([[1, 11, 'section', 'name', '']]);
    expect(rows(tiny.chunk('compose.yaml', fixture('compose.yaml')))).toEqual([
      [1, 5, 'section', 'services', ''],
      [6, 6, 'section', 'services', ''],
      [8, 10, 'section', 'volumes', ''],
    ]);
    expect(rows(tiny.chunk('Cargo.toml', fixture('Cargo.toml')))).toEqual([
      [1, 1, 'section', 'name', ''],
      [3, 5, 'section', 'package', ''],
      [7, 9, 'section', 'dependencies', ''],
    ]);
  });

  it('records why a file fell back to windows', () => {
    expect(chunker.analyse('db/schema.sql', 'CREATE TABLE t (id int);').fallback).toBe('no-grammar');
    expect(chunker.analyse('Dockerfile', 'FROM node:20\nRUN npm ci').fallback).toBe('no-grammar');
    expect(chunker.analyse('dist/app.js', `var a=${'1+'.repeat(3000)}1;`).fallback).toBe('minified');
    expect(chunker.analyse('src/a.go', 'package a\n').fallback).toBe(null);
  });
});

describe('symbol table', () => {
  const table = (path: string, name: string) =>
    chunker.analyse(path, fixture(name)).symbols.map((s) => `${s.role === 'definition' ? 'def' : s.kind} ${s.name} ${s.startLine}-${s.endLine} ${s.enclosing ?? '-'}`);

  it('lists definitions with kinds and scopes, and calls and imports with their enclosing function', () => {
    expect(table('src/client.ts', 'large-class.ts')).toEqual([
      'def Client 4-36 -',
      'def constructor 8-11 Client',
      'def request 14-27 Client',
      'def get 29-31 Client',
      'def post 33-35 Client',
      'import EventEmitter 1-1 -',
      'call replace 10-10 Client.constructor',
      'call fetch 18-18 Client.request',
      'call Error 20-20 Client.request',
      'call emit 24-24 Client.request',
      'call request 30-30 Client.get',
      'call request 34-34 Client.post',
      'call stringify 34-34 Client.post',
    ]);
    expect(chunker.analyse('src/client.ts', fixture('large-class.ts')).symbols[1]?.kind).toBe('method');
  });

  it('covers the other languages: Go receivers, Rust impls, C declarators, Elixir defs', () => {
    expect(table('server.go', 'server.go')).toEqual([
      'def Server 9-11 -',
      'def Handler 14-16 -',
      'def NewServer 19-21 -',
      'def Start 24-27 Server',
      'call Println 25-25 Server.Start',
      'call ListenAndServe 26-26 Server.Start',
    ]);
    expect(table('list.c', 'list.c')).toEqual(['def node 5-8 -', 'def node_t 10-10 -', 'def list_push 13-18 -', 'def list_length 20-24 -', 'call malloc 14-14 list_push']);
    const elixir = chunker.analyse('math.ex', fixture('math.ex')).symbols;
    expect(elixir.filter((s) => s.role === 'definition').map((s) => `${s.kind} ${s.name}`)).toEqual([
      'module MyApp.Math',
      'function add',
      'function square',
      'function sum_squares',
    ]);
  });

  it('records the names bound by a CommonJS require as imports, like ES imports (the key of a renamed binding)', () => {
    const expected = [
      'def notRequired 5-5 -',
      'def handle 7-10 -',
      'def module.exports 12-12 -',
      'import parseHeaders 3-3 -',
      'import formatDate 3-3 -',
      'import retries 3-3 -',
      'call require 3-3 -',
      'import http 4-4 -',
      'call require 4-4 -',
      'call parseHeaders 8-8 handle',
      'call request 9-9 handle',
      'call toDate 9-9 handle',
    ];
    // `const { notRequired } = settings` destructures no require: a definition (a constant), not an import.
    expect(table('src/server.js', 'require-destructuring.js')).toEqual(expected);
    expect(table('src/server.ts', 'require-destructuring.js')).toEqual(expected);
  });

  it('never reports a definition as a call, and keeps recursive calls', () => {
    const text = 'function walk(node) {\n  if (node) walk(node.next);\n}\nclass A {\n  walk() {\n    return walk(this);\n  }\n}\n';
    const symbols = chunker.analyse('src/walk.js', text).symbols;
    const calls = symbols.filter((s) => s.role === 'reference' && s.name === 'walk');
    expect(calls.map((s) => [s.startLine, s.enclosing])).toEqual([[2, 'walk'], [6, 'A.walk']]);
    const definitionLines = new Set(symbols.filter((s) => s.role === 'definition').map((s) => s.startLine));
    expect(calls.some((call) => definitionLines.has(call.startLine))).toBe(false);
  });
});
