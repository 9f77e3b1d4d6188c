import type { LanguageSpec } from './language-spec.js';
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
  }),
};

const C_DEFINITIONS = {
  function_definition: { shape: 'named', kind: 'function', nameField: 'declarator', nameDescend: 'declarator', splitQualified: true, body: 'statements' },
  struct_specifier: { shape: 'named', kind: 'class', body: 'members', requireBody: true },
  union_specifier: { shape: 'named', kind: 'class', body: 'members', requireBody: true },
  enum_specifier: { shape: 'named', kind: 'enum', requireBody: true },
  type_definition: { shape: 'named', kind: 'type', nameField: 'declarator', nameDescend: 'declarator' },
} as const;

/** C (`.c`, `.h`): functions (name through the declarator chain), structs, unions, enums, typedefs. */
export const C: LanguageSpec = {
  id: 'c',
  extensions: ['.c', '.h'],
  strategy: 'syntax',
  syntax: syntaxSpec({
    grammar: 'tree-sitter-c.wasm',
    definitions: { ...C_DEFINITIONS },
    blockTypes: ['compound_statement', 'field_declaration_list'],
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
  }),
};
