import { beforeAll, describe, expect, it } from 'vitest';
import type { Chunker } from './chunker.js';
import { createChunker } from './create-chunker.js';
import { isUpperCaseName } from './resolve-bindings.js';

let chunker: Chunker;
beforeAll(async () => {
  chunker = await createChunker({ maxTokens: 256, specialTokens: 0 });
});

/** Definition rows of a file: `kind name startLine-endLine enclosing` (`-` at top level). */
const definitions = (path: string, lines: string[]): string[] =>
  chunker
    .analyse(path, `${lines.join('\n')}\n`)
    .symbols.filter((s) => s.role === 'definition')
    .map((s) => `${s.kind} ${s.name} ${s.startLine}-${s.endLine} ${s.enclosing ?? '-'}`);

/** The constant and variable rows only. */
const bindings = (path: string, lines: string[]): string[] => definitions(path, lines).filter((row) => /^(constant|variable) /.test(row));

describe('module- and class-level bindings in the symbol table', () => {
  it('Python: UPPER_CASE assignments are constants, others variables; class attributes only when UPPER_CASE; never locals', () => {
    expect(
      definitions('a.py', [
        'MAX_RETRIES = 5', // 1
        'timeout: float = 2.5', // 2
        'a, b = 1, 2', // 3: a tuple pattern binds each name
        'class A:', // 4
        '    LIMIT = 3', // 5
        '    name = "x"', // 6: a class attribute, not a constant
        '    def f(self):', // 7
        '        LOCAL = 1', // 8
        '        return LOCAL', // 9
        'def g():', // 10
        '    MAX_RETRIES = 6', // 11
      ]),
    ).toEqual([
      'constant MAX_RETRIES 1-1 -',
      'variable timeout 2-2 -',
      'variable a 3-3 -',
      'variable b 3-3 -',
      'class A 4-9 -',
      'constant LIMIT 5-5 A',
      'method f 7-9 A',
      'function g 10-11 -',
    ]);
  });

  it('destructuring binds every name it introduces, never a key or a default (was: none of them)', () => {
    expect(
      bindings('settings.py', [
        'HOST, PORT = "localhost", 8080', // 1
        '(USER, GROUP) = ("app", "app")', // 2
        '[FIRST, *REST] = range(3)', // 3
        'class Limits:', // 4
        '    LOW, HIGH = 1, 10', // 5
      ]),
    ).toEqual([
      'constant HOST 1-1 -',
      'constant PORT 1-1 -',
      'constant USER 2-2 -',
      'constant GROUP 2-2 -',
      'constant FIRST 3-3 -',
      'constant REST 3-3 -',
      'constant LOW 5-5 Limits',
      'constant HIGH 5-5 Limits',
    ]);
    expect(
      bindings('config.js', [
        "const { a, b: renamed } = require('x');", // 1: an import, not a definition
        'const { host, port: listenPort = 80, tls: { cert } } = options;', // 2
        'let [first, [second], ...others] = list;', // 3
        'export const { timeout } = defaults;', // 4
      ]),
    ).toEqual([
      'constant host 2-2 -',
      'constant listenPort 2-2 -',
      'constant cert 2-2 -',
      'variable first 3-3 -',
      'variable second 3-3 -',
      'variable others 3-3 -',
      'constant timeout 4-4 -',
    ]);
  });

  it('Python: bindings inside a module- or class-level if / try / with count; inside a function they do not', () => {
    expect(
      bindings('b.py', [
        'try:', // 1
        '    import json', // 2
        '    HAS_JSON = True', // 3
        'except ImportError:', // 4
        '    HAS_JSON = False', // 5
        'if FLAG_SOURCE:', // 6
        '    SEP = "/"', // 7
        'elif OTHER:', // 8
        '    SEP = ":"', // 9
        'else:', // 10
        '    SEP = ";"', // 11
        'with open(PATH) as fh:', // 12
        '    banner = fh.read()', // 13
        'class B:', // 14
        '    if DEBUG:', // 15
        '        LEVEL = 10', // 16
        'def g():', // 17
        '    if True:', // 18
        '        LOCAL = 1', // 19
        '    try:', // 20
        '        OTHER_LOCAL = 2', // 21
        '    finally:', // 22
        '        pass', // 23
      ]),
    ).toEqual([
      'constant HAS_JSON 3-3 -', 'constant HAS_JSON 5-5 -', 'constant SEP 7-7 -', 'constant SEP 9-9 -', 'constant SEP 11-11 -',
      'variable banner 13-13 -', 'constant LEVEL 16-16 B',
    ]);
  });

  it('Go: const (single and grouped, every name of a spec) and var; not inside functions', () => {
    expect(
      definitions('a.go', [
        'package a', // 1
        'const MaxRetries = 5', // 2
        'const (', // 3
        '\tA = 1', // 4
        '\tB, C = 2, 3', // 5
        ')', // 6
        'var defaultName = "x"', // 7
        'func f() {', // 8
        '\tconst L = 1', // 9
        '\tvar z = 2', // 10
        '\t_ = z', // 11
        '}', // 12
      ]),
    ).toEqual(['constant MaxRetries 2-2 -', 'constant A 4-4 -', 'constant B 5-5 -', 'constant C 5-5 -', 'variable defaultName 7-7 -', 'function f 8-12 -']);
  });

  it('Rust: const and static items (static mut is a variable), in modules and impls', () => {
    expect(
      definitions('a.rs', [
        'pub const MAX_RETRIES: u32 = 5;', // 1
        'static NAME: &str = "x";', // 2
        "static mut COUNT: &'static str = \"\";", // 3
        'mod m {', // 4
        '    pub const INNER: u8 = 1;', // 5
        '}', // 6
        'impl Foo {', // 7
        '    const ASSOC: u8 = 2;', // 8
        '}', // 9
        'fn f() { const L: u8 = 1; let x = 2; }', // 10
      ]),
    ).toEqual([
      'constant MAX_RETRIES 1-1 -',
      'constant NAME 2-2 -',
      'variable COUNT 3-3 -',
      'module m 4-6 -',
      'constant INNER 5-5 m',
      'class Foo 7-9 -',
      'constant ASSOC 8-8 Foo',
      'function f 10-10 -',
    ]);
  });

  it('C: #define with a value, file-scope const and variables (also under #ifndef); not guards, macros, extern, prototypes or locals', () => {
    expect(
      definitions('a.c', [
        '#ifndef A_H', // 1
        '#define A_H', // 2
        '#define MAX_RETRIES 5', // 3
        '#define SQUARE(x) ((x) * (x))', // 4
        'static const int LIMIT = 3;', // 5
        'const char *const NAMES[] = { "a" };', // 6
        'int counter = 0, other;', // 7
        'extern int elsewhere;', // 8
        'int prototype(void);', // 9
        'void f(void) { const int L = 1; (void)L; }', // 10
        '#endif', // 11
      ]),
    ).toEqual([
      'constant MAX_RETRIES 3-3 -',
      'constant LIMIT 5-5 -',
      'constant NAMES 6-6 -',
      'variable counter 7-7 -',
      'variable other 7-7 -',
      'function f 10-10 -',
    ]);
  });

  it('C++: namespace-level constexpr and variables, static class constants, not instance fields', () => {
    expect(
      definitions('a.cpp', [
        'constexpr int MAX_RETRIES = 5;', // 1
        'namespace ns {', // 2
        'const int LIMIT = 3;', // 3
        'int g_count;', // 4
        '}', // 5
        'class C {', // 6
        '  static constexpr int MAX = 1;', // 7
        '  const int inst = 2;', // 8
        '};', // 9
      ]),
    ).toEqual(['constant MAX_RETRIES 1-1 -', 'module ns 2-5 -', 'constant LIMIT 3-3 ns', 'variable g_count 4-4 ns', 'class C 6-9 -', 'constant MAX 7-7 C']);
  });

  const ecmascript = [
    'export const MAX_RETRIES = 5;', // 1
    'const LIMIT = 3, handle = () => LIMIT;', // 2
    'let x = 1', // 3
    'var y;', // 4
    "const fs = require('fs');", // 5
    'const { a } = obj;', // 6: destructuring binds a
    'export const handler = async () => {};', // 7
    'class K {', // 8
    '  static MAX = 3;', // 9
    '  static count = 0;', // 10
    '  INSTANCE = 1;', // 11
    '  static go = () => 1;', // 12
    '}', // 13
    'function g() { const L = 1; return L; }', // 14
  ];

  it('JavaScript: module const (constant) and let/var (variable), static UPPER_CASE fields; arrow-function consts stay functions', () => {
    expect(definitions('a.js', ecmascript)).toEqual([
      'constant MAX_RETRIES 1-1 -',
      'constant LIMIT 2-2 -',
      'variable x 3-3 -',
      'variable y 4-4 -',
      'constant a 6-6 -',
      'function handler 7-7 -',
      'class K 8-13 -',
      'constant MAX 9-9 K',
      'method go 12-12 K',
      'function g 14-14 -',
    ]);
  });

  it('TypeScript and TSX: the same, plus static readonly fields, namespace constants and declare const', () => {
    const ts = [...ecmascript, 'class R { static readonly limit = 2; readonly LOWER = 1 }', 'namespace N { export const Z = 1; }', 'declare const VERSION: string;'];
    const expected = [
      'constant MAX_RETRIES 1-1 -',
      'constant LIMIT 2-2 -',
      'variable x 3-3 -',
      'variable y 4-4 -',
      'constant a 6-6 -',
      'function handler 7-7 -',
      'class K 8-13 -',
      'constant MAX 9-9 K',
      'method go 12-12 K',
      'function g 14-14 -',
      'class R 15-15 -',
      'constant limit 15-15 R',
      'module N 16-16 -',
      'constant Z 16-16 N',
      'constant VERSION 17-17 -',
    ];
    expect(definitions('a.ts', ts)).toEqual(expected);
    expect(definitions('a.tsx', ts)).toEqual(expected);
  });

  it('Java: static final fields, interface fields and enum constants fields; not instance or local finals', () => {
    expect(
      definitions('A.java', [
        'public class A {', // 1
        '  public static final int MAX_RETRIES = 5;', // 2
        '  static int count = 0;', // 3
        '  private final int inst = 1;', // 4
        '  interface I { int LIMIT = 3; }', // 5
        '  enum E { X; static final int Z = 1; }', // 6
        '  void f() { final int L = 1; }', // 7
        '}', // 8
      ]),
    ).toEqual(['class A 1-8 -', 'constant MAX_RETRIES 2-2 A', 'interface I 5-5 A', 'constant LIMIT 5-5 A.I', 'enum E 6-6 A', 'constant Z 6-6 A.E', 'method f 7-7 A']);
  });

  it('Ruby: capitalised names are constants (also in classes), lower-case top-level assignments variables', () => {
    expect(
      definitions('a.rb', ['MAX_RETRIES = 5', 'Version = "1"', 'x = 1', 'module M', '  class A', '    LIMIT = 3', '    y = 2', '    def f; L = 1; end', '  end', 'end']),
    ).toEqual(['constant MAX_RETRIES 1-1 -', 'constant Version 2-2 -', 'variable x 3-3 -', 'module M 4-10 -', 'class A 5-9 M', 'constant LIMIT 6-6 M.A', 'method f 8-8 M.A']);
  });

  it('C#, PHP, Kotlin, Swift, Scala, Lua and Bash', () => {
    expect(bindings('a.cs', ['class A {', '  public const int MAX_RETRIES = 5;', '  static readonly string Name = "x";', '  static int count;', '  readonly int inst = 1;', '}'])).toEqual([
      'constant MAX_RETRIES 2-2 A',
      'constant Name 3-3 A',
    ]);
    expect(bindings('a.php', ['<?php', 'const MAX_RETRIES = 5;', 'class A {', '  const MAX = 1;', '  public static $count = 0;', '}'])).toEqual(['constant MAX_RETRIES 2-2 -', 'constant MAX 4-4 A']);
    expect(
      bindings('a.kt', ['const val MAX_RETRIES = 5', 'val name = "x"', 'var count = 0', 'class A {', '  companion object {', '    const val LIMIT = 3', '  }', '  val inst = 1', '}', 'object O {', '  val Z = 1', '}', 'fun f() { val l = 1 }']),
    ).toEqual(['constant MAX_RETRIES 1-1 -', 'constant name 2-2 -', 'variable count 3-3 -', 'constant LIMIT 6-6 A', 'constant Z 11-11 O']);
    expect(bindings('a.swift', ['let maxRetries = 5', 'var count = 0', 'class A {', '  static let LIMIT = 3', '  let inst = 1', '}', 'func f() { let l = 1 }'])).toEqual([
      'constant maxRetries 1-1 -',
      'variable count 2-2 -',
      'constant LIMIT 4-4 A',
    ]);
    expect(bindings('a.scala', ['val MaxRetries = 5', 'object O {', '  val Limit = 3', '  var count = 0', '}', 'class C { val inst = 1 }'])).toEqual([
      'constant MaxRetries 1-1 -',
      'constant Limit 3-3 O',
    ]);
    expect(bindings('a.lua', ['local MAX_RETRIES = 5', 'limit = 3', 'M.x = 1', 'local function f() local l = 1 end'])).toEqual(['constant MAX_RETRIES 1-1 -', 'variable limit 2-2 -']);
    expect(bindings('a.sh', ['MAX_RETRIES=5', 'readonly limit=3', 'export name=x', 'f() { local l=1; X=2; }'])).toEqual(['constant MAX_RETRIES 1-1 -', 'constant limit 2-2 -', 'variable name 3-3 -']);
  });

  it('inside a Vue script block too', () => {
    expect(bindings('App.vue', ['<script setup lang="ts">', 'const MAX = 5', '</script>', '<template><div /></template>'])).toEqual(['constant MAX 2-2 -']);
  });

  it('leaves chunks and references as they were: binding rows only add definitions', () => {
    const text = 'const x = compute();\nexport const LIMIT = 3;\nfunction compute() { return 1; }\n';
    const analysis = chunker.analyse('a.ts', text);
    // The call on the binding's row stays a reference; the chunk is module code joined to the function after it, as before.
    expect(analysis.symbols.map((s) => `${s.role} ${s.kind} ${s.name} ${s.startLine}`)).toEqual([
      'definition constant x 1',
      'definition constant LIMIT 2',
      'definition function compute 3',
      'reference call compute 1',
    ]);
    expect(analysis.chunks.map((c) => [c.startLine, c.endLine, c.kind, c.symbol])).toEqual([[1, 3, 'function', 'compute']]);
  });

  it('reads UPPER_CASE as no lower-case letter and at least one upper-case one', () => {
    expect(['MAX_RETRIES', '_T', 'A1', 'HTTP2_MAX'].map(isUpperCaseName)).toEqual([true, true, true, true]);
    expect(['__all__', 'MaxRetries', '_', '__', 'max'].map(isUpperCaseName)).toEqual([false, false, false, false, false]);
  });
});
