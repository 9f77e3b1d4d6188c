import type { BindingRule, BindingSpec, LanguageSpec, SyntaxSpec, TestCallSpec } from './language-spec.js';

/** Rules shared by the TypeScript, TSX and JavaScript grammars (they share node type names). */
export const ECMASCRIPT_DEFINITIONS: SyntaxSpec['definitions'] = {
  export_statement: { shape: 'wrapper', fields: ['declaration', 'value'], defaultName: 'default' },
  expression_statement: { shape: 'wrapper', fields: [], callbacks: true },
  ambient_declaration: { shape: 'wrapper', fields: [] },
  function_declaration: { shape: 'named', kind: 'function', body: 'statements' },
  generator_function_declaration: { shape: 'named', kind: 'function', body: 'statements' },
  function_signature: { shape: 'named', kind: 'function' },
  function_expression: { shape: 'named', kind: 'function', body: 'statements' },
  arrow_function: { shape: 'named', kind: 'function', body: 'statements' },
  class_declaration: { shape: 'named', kind: 'class', body: 'members' },
  abstract_class_declaration: { shape: 'named', kind: 'class', body: 'members' },
  class: { shape: 'named', kind: 'class', body: 'members' },
  method_definition: { shape: 'named', kind: 'function', body: 'statements' },
  method_signature: { shape: 'named', kind: 'function' },
  abstract_method_signature: { shape: 'named', kind: 'function' },
  interface_declaration: { shape: 'named', kind: 'interface', body: 'members' },
  type_alias_declaration: { shape: 'named', kind: 'type' },
  enum_declaration: { shape: 'named', kind: 'enum', body: 'members' },
  internal_module: { shape: 'named', kind: 'namespace', body: 'members' },
  module: { shape: 'named', kind: 'namespace', body: 'members' },
  lexical_declaration: { shape: 'variable', declarators: ['variable_declarator'] },
  variable_declaration: { shape: 'variable', declarators: ['variable_declarator'] },
  assignment_expression: { shape: 'assignment' },
  public_field_definition: { shape: 'field', nameFields: ['name'] },
  field_definition: { shape: 'field', nameFields: ['property', 'name'] },
  pair: { shape: 'field', nameFields: ['key'] },
};

/** Destructuring in ECMAScript declarations: `const { a, b: renamed, c = 1, ...rest } = obj`, `const [first, [second]] = list`. */
const ECMASCRIPT_PATTERNS: NonNullable<BindingRule['patterns']> = {
  types: ['object_pattern', 'array_pattern', 'rest_pattern'],
  follow: { pair_pattern: 'value', assignment_pattern: 'left', object_assignment_pattern: 'left' },
  identifiers: ['shorthand_property_identifier_pattern'],
};

/**
 * Module-level `const` (constant) and `let`/`var` (variable) bindings, and `static` class fields that are
 * `readonly` or UPPER_CASE; a function, class or object value is a definition already, a `require()` an import.
 */
export const ECMASCRIPT_BINDINGS: BindingSpec = {
  statements: {
    lexical_declaration: { declarators: ['variable_declarator'], valueField: 'value', skipCalls: ['require'], constantWords: ['const'], patterns: ECMASCRIPT_PATTERNS },
    variable_declaration: { declarators: ['variable_declarator'], valueField: 'value', skipCalls: ['require'], patterns: ECMASCRIPT_PATTERNS },
    public_field_definition: { identifiers: ['property_identifier'], valueField: 'value', constantWords: ['readonly'], classWords: ['static'] },
    field_definition: { nameField: 'property', identifiers: ['property_identifier'], valueField: 'value', classWords: ['static'] },
  },
  wrappers: ['export_statement', 'ambient_declaration'],
};

/**
 * Test functions of Mocha, Jest, Vitest, Jasmine, node:test, tap and Playwright: `describe`, `it`, `test`
 * and their aliases (`suite`, `context`, `specify`, Jasmine's focused and excluded `fit` / `xdescribe`),
 * `bench`, their modifiers (`it.only`, `test.concurrent.skip`, `describe.each(table)`, `test.skipIf(cond)`)
 * and Playwright's `test.describe` / `test.step`; `t.test(...)` and `t.describe(...)` on any object.
 */
export const ECMASCRIPT_TESTS: TestCallSpec = {
  functions: ['describe', 'fdescribe', 'xdescribe', 'it', 'fit', 'xit', 'test', 'xtest', 'suite', 'context', 'xcontext', 'specify', 'xspecify', 'bench'],
  properties: [
    'only', 'skip', 'todo', 'each', 'for', 'concurrent', 'sequential', 'serial', 'parallel', 'fails', 'failing', 'shuffle',
    'skipIf', 'runIf', 'fixme', 'slow', 'describe', 'test', 'it', 'step',
  ],
  members: ['test', 'describe'],
  awaits: ['await_expression'],
};

/** Syntax spec for a grammar of the JavaScript family. */
export function ecmascriptSyntax(grammar: string): SyntaxSpec {
  return {
    grammar,
    definitions: ECMASCRIPT_DEFINITIONS,
    comments: ['comment', 'hash_bang_line'],
    attachToNext: ['decorator'],
    functionValues: ['arrow_function', 'function_expression', 'function', 'generator_function'],
    objectValues: ['object'],
    callValues: ['call_expression'],
    passThrough: [
      'binary_expression',
      'ternary_expression',
      'parenthesized_expression',
      'as_expression',
      'satisfies_expression',
      'non_null_expression',
      'await_expression',
    ],
    blockTypes: ['statement_block', 'class_body', 'interface_body', 'object_type', 'enum_body', 'object'],
    bindings: ECMASCRIPT_BINDINGS,
    tests: ECMASCRIPT_TESTS,
  };
}

/** TypeScript (`.ts`, `.mts`, `.cts`). */
export const TYPESCRIPT: LanguageSpec = {
  id: 'typescript',
  extensions: ['.ts', '.mts', '.cts'],
  interpreters: ['ts-node', 'tsx', 'deno', 'bun'],
  strategy: 'syntax',
  syntax: ecmascriptSyntax('tree-sitter-typescript.wasm'),
};

/** TSX (`.tsx`). */
export const TSX: LanguageSpec = {
  id: 'tsx',
  extensions: ['.tsx'],
  strategy: 'syntax',
  syntax: ecmascriptSyntax('tree-sitter-tsx.wasm'),
};

/** JavaScript (`.js`, `.jsx`, `.mjs`, `.cjs`, `node` shebang). */
export const JAVASCRIPT: LanguageSpec = {
  id: 'javascript',
  extensions: ['.js', '.jsx', '.mjs', '.cjs'],
  interpreters: ['node', 'nodejs'],
  strategy: 'syntax',
  syntax: ecmascriptSyntax('tree-sitter-javascript.wasm'),
};
