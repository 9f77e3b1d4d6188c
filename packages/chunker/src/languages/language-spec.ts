/** How the chunker splits files of a language. */
export type ChunkStrategy = 'syntax' | 'markdown' | 'rst' | 'keys' | 'embedded' | 'notebook' | 'window';

/**
 * Kind a definition rule produces. `namespace` and `object` become chunk kind `module`; `callback` is a
 * call statement with a function argument (`app.get('/x', handler)`, an IIFE): module code that can be
 * split between the callback's statements when too large, with symbol null; `test` is such a call of a
 * test function with a literal title (`it('retries on 503', ...)`, see `TestCallSpec`), named by the title.
 */
export type DefinitionKind = 'function' | 'class' | 'interface' | 'type' | 'enum' | 'namespace' | 'object' | 'callback' | 'test';

/** What a definition's body holds: members (class-like, split into member chunks) or statements (function-like). */
export type BodyKind = 'members' | 'statements';

/**
 * How to read one syntax-node type as a definition. Shapes:
 * - `named`: the node itself is the definition; name from `nameField` (default `name`), body from `bodyField` (default `body`).
 *   `nameFrom: 'type'` reads the name from field `type` instead (e.g. Rust `impl Foo`).
 * - `wrapper`: the definition is the child in one of `fields` (or the first named child when `fields` is empty),
 *   e.g. `export_statement`, Python `decorated_definition`; the wrapper's lines belong to the definition.
 *   An unnamed function/class/object child is named `defaultName` when given (`export default function () {}`);
 *   with `callbacks`, a call with a function argument is a `callback` definition.
 * - `variable`: a declaration whose first declarator binds a function or object value (`const f = () => {}`).
 * - `assignment`: `a.b.c = function () {}` (CommonJS exports, prototype methods); name = last property.
 * - `field`: a class field or object property whose value is a function (`handle = () => {}`, `get: function () {}`).
 * - `macro`: a call whose callee names the definition kind (Elixir `def name(...) do ... end`, `defmodule`):
 *   `calls` maps the callee to a kind; the name is the first argument (its callee for a call), the body its `do_block`.
 */
export type DefinitionRule =
  | NamedRule
  | { shape: 'macro'; calls: Record<string, DefinitionKind> }
  | { shape: 'wrapper'; fields: string[]; defaultName?: string; callbacks?: boolean }
  | { shape: 'variable'; declarators: string[] }
  | { shape: 'assignment' }
  | { shape: 'field'; nameFields: string[] };

/**
 * A node that is itself a definition. The name comes from field `nameField` (default `name`), or from the first
 * named child of one of `nameTypes` (grammars without fields, e.g. Kotlin); with `nameDescend` the named node
 * is followed through that field while it has one (C `declarator` chains). `splitQualified` turns `A.b`,
 * `A:b` or `A::b` into name `b` with owner scope `A`. The body is field `bodyField` (default `body`) or the first
 * named child of one of `bodyTypes`. `ownerField` names a node whose first type identifier is the owner scope
 * (Go method receivers). `kindByField` picks the kind by the type of the node in `field` (Go `type_spec`).
 */
export interface NamedRule {
  shape: 'named';
  kind: DefinitionKind;
  nameField?: string;
  nameTypes?: string[];
  nameDescend?: string;
  splitQualified?: boolean;
  bodyField?: string;
  bodyTypes?: string[];
  body?: BodyKind;
  ownerField?: string;
  kindByField?: { field: string; kinds: Record<string, DefinitionKind> };
  /** Only a definition when it has a body (C `struct x { ... }`, not the type use `struct x *p`). */
  requireBody?: boolean;
}

/**
 * How to read one statement type as module- or class-level bindings (symbol table only; never chunks).
 * The statement binds one name per declarator: its children of a `declarators` type (found among the
 * statement's children, or inside its child of type `declaratorsIn`), or the statement itself when
 * `declarators` is absent. Each declarator's names are its children in field `nameField` (default `name`;
 * all of them, for Go `const a, b = 1, 2`), or its first named child of a `nameTypes` type; a name node of a
 * `through.types` type is followed through field `through.field` (C `init_declarator` -> `pointer_declarator`
 * -> identifier, Swift `pattern`). Only names of an `identifiers` type (default `identifier`) count, so
 * patterns (`const { a } = o`, `a, b = 1, 2`) and function declarators (`int f(void);`) bind nothing.
 *
 * The kind (see `bindingKind`): `variable` when a `variableWords` word is present (Rust `static mut`); else
 * `constant` when the rule is `constant`, a `constantWords` word is present, the name node's type is in
 * `constantNames` (Ruby's `constant`) or the name is UPPER_CASE; else `variable`. Words are the statement's
 * tokens before its first declarator or name, its type left out (`const`, `static`, `final`, `mut`, ...).
 */
export interface BindingRule {
  declarators?: string[];
  declaratorsIn?: string;
  nameField?: string;
  nameTypes?: string[];
  through?: { field: string; types: string[] };
  identifiers?: string[];
  /**
   * Destructuring: a name node of one of `types` binds the identifiers inside it (`A, B = 1, 2`,
   * `const { a, b: renamed } = obj`, `[first, ...rest]`), reached through all its named children, except
   * that a node type in `follow` is entered only through that field (`pair_pattern` through `value`: the
   * key binds nothing; `assignment_pattern` through `left`: the default binds nothing). `identifiers`
   * adds name types found only in patterns (`shorthand_property_identifier_pattern`).
   */
  patterns?: { types: string[]; follow?: Record<string, string>; identifiers?: string[] };
  /** Field of the declarator holding the value: a function, class or object value is a definition already; a call of `skipCalls` is an import. */
  valueField?: string;
  /** A declarator without a value binds nothing (C `#define GUARD_H`). */
  valueRequired?: boolean;
  /** Callees whose call as the value makes the binding an import, not a definition (`require`). */
  skipCalls?: string[];
  constant?: boolean;
  constantWords?: string[];
  variableWords?: string[];
  constantNames?: string[];
  /** A statement with one of these words binds nothing here (C `extern`: a declaration of a definition elsewhere). */
  skipWords?: string[];
  /**
   * In a class body, the statement counts only with one of these words (`static`: a class-level member, not an
   * instance field); absent, every statement of a class body is class-level (Python, Ruby, Rust `impl`).
   */
  classWords?: string[];
}

/**
 * Module- and class-level bindings of a language (see `extractSymbols`): rules by statement type; `wrappers`
 * are node types between a statement and its scope that do not make a new scope (`export_statement`, C
 * `#ifdef`, Kotlin's `companion_object`); `staticScopes` are definition node types whose bodies are class-level
 * throughout (Scala and Kotlin `object`), so `classWords` do not apply there.
 */
export interface BindingSpec {
  statements: Record<string, BindingRule>;
  wrappers?: string[];
  staticScopes?: string[];
}

/**
 * Which callback calls are tests (`testTitle`): the callee is a test function, directly or through its
 * properties, and the first argument a literal title. A callee is a chain of names (`describe`,
 * `it.only`, `describe.each(table)` read as `describe.each`, `t.test`): either it starts with one of
 * `functions` and every name after it is one of `properties`, or (any object first) it holds one of
 * `members` and every name after that is one of `properties`.
 */
export interface TestCallSpec {
  /** Test functions called by name: `describe`, `it`, `test`, ... */
  functions: string[];
  /** Names after a test function that keep it one: modifiers (`only`, `skip`, `each`, ...) and nested APIs (`test.describe`, `test.step`). */
  properties: string[];
  /** Properties that are a test function of any object: `t.test` (node:test, tap), `t.describe`. */
  members: string[];
  /** Expression types looked through to the call, for test calls only: `await_expression` (`await t.test(...)`). */
  awaits: string[];
}

/** Node types and rules of a tree-sitter grammar that the syntax planner needs. */
export interface SyntaxSpec {
  /** Grammar file name inside `@cursorless/tree-sitter-wasms/out/`. */
  grammar: string;
  /** Definition rules by node type. */
  definitions: Record<string, DefinitionRule>;
  /** Comment node types; a comment directly above a node (no blank line between) is attached to it. */
  comments: string[];
  /** Node types always attached to the following sibling (e.g. TS member `decorator`). */
  attachToNext: string[];
  /** Value node types that make a variable, field or assignment a function (e.g. `arrow_function`). */
  functionValues: string[];
  /** Value node types that make a variable an object definition whose properties are members (e.g. `object`). */
  objectValues: string[];
  /** Call node types whose function arguments count as the bound value (`React.memo(function () {})`). */
  callValues: string[];
  /** Expression types looked through for a bound value (`x && function () {}`, `cond ? {...} : {...}`). */
  passThrough: string[];
  /** Body node types that hold statements or members and so can be split (e.g. `statement_block`, `block`). */
  blockTypes: string[];
  /** Module- and class-level constants and variables for the symbol table; absent: none are recorded. */
  bindings?: BindingSpec;
  /** Callback calls that are titled tests (JavaScript family); absent: every callback call stays module code. */
  tests?: TestCallSpec;
  /**
   * Rows where a top-level statement surely starts (Python: `def`, `class`, `async def` or a decorator at
   * column 0). A syntax error whose node runs past such a row (an unclosed bracket swallowing the
   * definitions after it) has its rows before that row left out of the parse (see `swallowingRows`).
   * Absent: errors are left to the parser's own recovery.
   */
  resync?: RegExp;
}

/** One language of the registry: pure data. */
export interface LanguageSpec {
  /** Language id stored in chunks, e.g. `typescript`. */
  id: string;
  /** File extensions with the dot, lower case, e.g. `.ts`. */
  extensions: string[];
  /** Exact file names (lower case) such as `makefile` or `dockerfile`. */
  fileNames?: string[];
  /** Interpreter names recognised in a `#!` line, e.g. `node`, `python3`. */
  interpreters?: string[];
  strategy: ChunkStrategy;
  /** Present when `strategy` is `syntax`. */
  syntax?: SyntaxSpec;
  /** For strategy `keys`: the data format whose top-level keys start sections. */
  keys?: 'json' | 'yaml' | 'toml';
}
