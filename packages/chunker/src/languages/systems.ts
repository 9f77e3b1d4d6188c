import type { BindingSpec, LanguageSpec } from './language-spec.js';
import { syntaxSpec } from './syntax-spec.js';

/** Go (`.go`): functions, methods (owner = receiver type), `type` declarations (struct = class, interface). */
export const GO: LanguageSpec = {
  id: 'go',
  extensions: ['.go'],
  strategy: 'syntax',
  syntax: syntaxSpec({
    grammar: 'tree-sitter-go.wasm',
    definitions: {
      function_declaration: { shape: 'named', kind: 'function', body: 'statements' },
      method_declaration: { shape: 'named', kind: 'function', body: 'statements', ownerField: 'receiver' },
      type_declaration: { shape: 'wrapper', fields: [] },
      type_spec: {
        shape: 'named',
        kind: 'type',
        kindByField: { field: 'type', kinds: { struct_type: 'class', interface_type: 'interface' } },
      },
    },
    blockTypes: ['block'],
    // Package-level `const` (each name of a spec; a `const ( ... )` block's rows are per spec) and `var`.
    bindings: {
      statements: {
        const_declaration: { declarators: ['const_spec'], constant: true },
        var_declaration: { declarators: ['var_spec'] },
      },
    },
  }),
};

/** Rust (`.rs`): functions, structs, enums, traits (interface), impls (class named by their type), modules, macros. */
export const RUST: LanguageSpec = {
  id: 'rust',
  extensions: ['.rs'],
  strategy: 'syntax',
  syntax: syntaxSpec({
    grammar: 'tree-sitter-rust.wasm',
    definitions: {
      function_item: { shape: 'named', kind: 'function', body: 'statements' },
      function_signature_item: { shape: 'named', kind: 'function' },
      struct_item: { shape: 'named', kind: 'class' },
      union_item: { shape: 'named', kind: 'class' },
      enum_item: { shape: 'named', kind: 'enum', body: 'members' },
      trait_item: { shape: 'named', kind: 'interface', body: 'members' },
      impl_item: { shape: 'named', kind: 'class', nameField: 'type', body: 'members' },
      mod_item: { shape: 'named', kind: 'namespace', body: 'members' },
      type_item: { shape: 'named', kind: 'type' },
      macro_definition: { shape: 'named', kind: 'function' },
    },
    comments: ['line_comment', 'block_comment'],
    attachToNext: ['attribute_item'],
    blockTypes: ['block', 'declaration_list', 'enum_variant_list'],
    // `const` and `static` items at module level and in `impl`/trait bodies; `static mut` is a variable.
    bindings: {
      statements: {
        const_item: { constant: true },
        static_item: { constant: true, variableWords: ['mut'] },
      },
    },
  }),
};

const C_DEFINITIONS = {
  function_definition: { shape: 'named', kind: 'function', nameField: 'declarator', nameDescend: 'declarator', splitQualified: true, body: 'statements' },
  struct_specifier: { shape: 'named', kind: 'class', body: 'members', requireBody: true },
  union_specifier: { shape: 'named', kind: 'class', body: 'members', requireBody: true },
  enum_specifier: { shape: 'named', kind: 'enum', requireBody: true },
  type_definition: { shape: 'named', kind: 'type', nameField: 'declarator', nameDescend: 'declarator' },
} as const;

const C_DECLARATOR = { field: 'declarator', types: ['init_declarator', 'pointer_declarator', 'array_declarator', 'parenthesized_declarator'] };

/**
 * C bindings: `#define NAME value` (constant; not a guard without a value, not a function-like macro), file-scope
 * declarations (constant with `const`/`constexpr`, else variable; not `extern` ones, not prototypes), and in
 * C++ class bodies `static const`/`constexpr` members.
 */
const C_BINDINGS: BindingSpec = {
  statements: {
    preproc_def: { constant: true, valueField: 'value', valueRequired: true },
    declaration: {
      declarators: ['identifier', ...C_DECLARATOR.types],
      through: C_DECLARATOR,
      constantWords: ['const', 'constexpr'],
      skipWords: ['extern'],
    },
    field_declaration: {
      declarators: ['field_identifier', ...C_DECLARATOR.types],
      through: C_DECLARATOR,
      identifiers: ['identifier', 'field_identifier'],
      constantWords: ['const', 'constexpr'],
      classWords: ['static'],
    },
  },
  wrappers: ['preproc_ifdef', 'preproc_if', 'preproc_else', 'preproc_elif', 'preproc_elifdef'],
};

/** C (`.c`, `.h`): functions (name through the declarator chain), structs, unions, enums, typedefs. */
export const C: LanguageSpec = {
  id: 'c',
  extensions: ['.c', '.h'],
  strategy: 'syntax',
  syntax: syntaxSpec({
    grammar: 'tree-sitter-c.wasm',
    definitions: { ...C_DEFINITIONS },
    blockTypes: ['compound_statement', 'field_declaration_list'],
    bindings: C_BINDINGS,
  }),
};

/** C++ (`.cc`, `.cpp`, `.hpp`, ...): C's definitions plus classes, namespaces, templates; `A::f` is `f` in scope `A`. */
export const CPP: LanguageSpec = {
  id: 'cpp',
  extensions: ['.cc', '.cpp', '.cxx', '.c++', '.hpp', '.hh', '.hxx', '.h++', '.ipp'],
  strategy: 'syntax',
  syntax: syntaxSpec({
    grammar: 'tree-sitter-cpp.wasm',
    definitions: {
      ...C_DEFINITIONS,
      class_specifier: { shape: 'named', kind: 'class', body: 'members', requireBody: true },
      namespace_definition: { shape: 'named', kind: 'namespace', body: 'members' },
      template_declaration: { shape: 'wrapper', fields: [] },
      linkage_specification: { shape: 'wrapper', fields: ['body'] },
    },
    blockTypes: ['compound_statement', 'field_declaration_list', 'declaration_list'],
    // An anonymous namespace, `extern "C" { ... }` and a template variable are module level too.
    bindings: { ...C_BINDINGS, wrappers: [...(C_BINDINGS.wrappers ?? []), 'namespace_definition', 'linkage_specification', 'declaration_list', 'template_declaration'] },
  }),
};
