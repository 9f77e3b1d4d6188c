import type { LanguageSpec } from './language-spec.js';
import { syntaxSpec } from './syntax-spec.js';

/** Java (`.java`): classes, interfaces, enums, records, methods and constructors; annotations are part of the node. */
export const JAVA: LanguageSpec = {
  id: 'java',
  extensions: ['.java'],
  strategy: 'syntax',
  syntax: syntaxSpec({
    grammar: 'tree-sitter-java.wasm',
    definitions: {
      class_declaration: { shape: 'named', kind: 'class', body: 'members' },
      record_declaration: { shape: 'named', kind: 'class', body: 'members' },
      interface_declaration: { shape: 'named', kind: 'interface', body: 'members' },
      annotation_type_declaration: { shape: 'named', kind: 'interface', body: 'members' },
      enum_declaration: { shape: 'named', kind: 'enum', body: 'members' },
      method_declaration: { shape: 'named', kind: 'function', body: 'statements' },
      constructor_declaration: { shape: 'named', kind: 'function', body: 'statements' },
    },
    comments: ['line_comment', 'block_comment'],
    blockTypes: ['block', 'constructor_body', 'class_body', 'interface_body', 'enum_body', 'annotation_type_body'],
    // `static final` fields (and UPPER_CASE static ones); interface fields are constants.
    bindings: {
      statements: {
        field_declaration: { declarators: ['variable_declarator'], constantWords: ['final'], classWords: ['static'] },
        constant_declaration: { declarators: ['variable_declarator'], constant: true },
      },
      wrappers: ['enum_body_declarations'],
    },
  }),
};

/** C# (`.cs`): namespaces, classes, structs, records, interfaces, enums, methods, constructors, properties' owners. */
export const CSHARP: LanguageSpec = {
  id: 'csharp',
  extensions: ['.cs', '.csx'],
  strategy: 'syntax',
  syntax: syntaxSpec({
    grammar: 'tree-sitter-c_sharp.wasm',
    definitions: {
      namespace_declaration: { shape: 'named', kind: 'namespace', body: 'members' },
      class_declaration: { shape: 'named', kind: 'class', body: 'members' },
      struct_declaration: { shape: 'named', kind: 'class', body: 'members' },
      record_declaration: { shape: 'named', kind: 'class', body: 'members' },
      interface_declaration: { shape: 'named', kind: 'interface', body: 'members' },
      enum_declaration: { shape: 'named', kind: 'enum' },
      method_declaration: { shape: 'named', kind: 'function', body: 'statements' },
      constructor_declaration: { shape: 'named', kind: 'function', body: 'statements' },
      local_function_statement: { shape: 'named', kind: 'function', body: 'statements' },
    },
    blockTypes: ['block', 'declaration_list'],
    // `const` and `static readonly` fields.
    bindings: {
      statements: {
        field_declaration: {
          declaratorsIn: 'variable_declaration',
          declarators: ['variable_declarator'],
          nameTypes: ['identifier'],
          constantWords: ['const', 'readonly'],
          classWords: ['static', 'const'],
        },
      },
    },
  }),
};

/** Kotlin (`.kt`, `.kts`): classes, objects, interfaces (`class_declaration`), functions; names by child type. */
export const KOTLIN: LanguageSpec = {
  id: 'kotlin',
  extensions: ['.kt', '.kts'],
  strategy: 'syntax',
  syntax: syntaxSpec({
    grammar: 'tree-sitter-kotlin.wasm',
    definitions: {
      class_declaration: { shape: 'named', kind: 'class', nameTypes: ['type_identifier'], bodyTypes: ['class_body', 'enum_class_body'], body: 'members' },
      object_declaration: { shape: 'named', kind: 'class', nameTypes: ['type_identifier'], bodyTypes: ['class_body'], body: 'members' },
      function_declaration: { shape: 'named', kind: 'function', nameTypes: ['simple_identifier'], bodyTypes: ['function_body'], body: 'statements' },
    },
    comments: ['line_comment', 'multiline_comment', 'comment'],
    blockTypes: ['class_body', 'enum_class_body', 'function_body', 'statements'],
    // Top-level `val` (constant) and `var`; `const val` in a class's companion object; every `val` of an `object`.
    bindings: {
      statements: {
        property_declaration: {
          declarators: ['variable_declaration'],
          nameTypes: ['simple_identifier'],
          identifiers: ['simple_identifier'],
          constantWords: ['val', 'const'],
          classWords: ['const'],
        },
      },
      wrappers: ['companion_object', 'class_body'],
      staticScopes: ['object_declaration'],
    },
  }),
};

/** Swift (`.swift`): classes, structs, enums, extensions (`class_declaration`), protocols, functions, initialisers. */
export const SWIFT: LanguageSpec = {
  id: 'swift',
  extensions: ['.swift'],
  strategy: 'syntax',
  syntax: syntaxSpec({
    grammar: 'tree-sitter-swift.wasm',
    definitions: {
      class_declaration: { shape: 'named', kind: 'class', body: 'members' },
      protocol_declaration: { shape: 'named', kind: 'interface', body: 'members' },
      function_declaration: { shape: 'named', kind: 'function', body: 'statements' },
      protocol_function_declaration: { shape: 'named', kind: 'function' },
      init_declaration: { shape: 'named', kind: 'function', nameTypes: ['init'], body: 'statements' },
      typealias_declaration: { shape: 'named', kind: 'type' },
    },
    comments: ['comment', 'multiline_comment'],
    blockTypes: ['class_body', 'protocol_body', 'enum_class_body', 'function_body', 'statements'],
    // Top-level `let` (constant) and `var`; `static let` / `class let` members.
    bindings: {
      statements: {
        property_declaration: {
          through: { field: 'bound_identifier', types: ['pattern'] },
          identifiers: ['simple_identifier'],
          constantWords: ['let'],
          classWords: ['static', 'class'],
        },
      },
    },
  }),
};

/** Scala (`.scala`, `.sc`): classes, objects, traits, enums, functions (`def`). */
export const SCALA: LanguageSpec = {
  id: 'scala',
  extensions: ['.scala', '.sc'],
  strategy: 'syntax',
  syntax: syntaxSpec({
    grammar: 'tree-sitter-scala.wasm',
    definitions: {
      class_definition: { shape: 'named', kind: 'class', body: 'members' },
      object_definition: { shape: 'named', kind: 'class', body: 'members' },
      trait_definition: { shape: 'named', kind: 'interface', body: 'members' },
      enum_definition: { shape: 'named', kind: 'enum', body: 'members' },
      function_definition: { shape: 'named', kind: 'function', body: 'statements' },
      function_declaration: { shape: 'named', kind: 'function' },
      type_definition: { shape: 'named', kind: 'type' },
    },
    comments: ['comment', 'block_comment'],
    attachToNext: ['annotation'],
    blockTypes: ['template_body', 'block', 'enum_body'],
    // Top-level `val` (constant) and `var`; the `val`s of an `object` (a class's have no class-level members).
    bindings: {
      statements: {
        val_definition: { nameField: 'pattern', constant: true, classWords: [] },
        var_definition: { nameField: 'pattern', classWords: [] },
      },
      staticScopes: ['object_definition'],
    },
  }),
};

/** Dart (`.dart`): classes, mixins, extensions, enums, functions and methods (signature and body are siblings). */
export const DART: LanguageSpec = {
  id: 'dart',
  extensions: ['.dart'],
  strategy: 'syntax',
  syntax: syntaxSpec({
    grammar: 'tree-sitter-dart.wasm',
    definitions: {
      class_definition: { shape: 'named', kind: 'class', body: 'members' },
      mixin_declaration: { shape: 'named', kind: 'class', nameTypes: ['identifier'], bodyTypes: ['class_body'], body: 'members' },
      extension_declaration: { shape: 'named', kind: 'class', body: 'members' },
      enum_declaration: { shape: 'named', kind: 'enum' },
      function_signature: { shape: 'named', kind: 'function' },
      getter_signature: { shape: 'named', kind: 'function' },
      setter_signature: { shape: 'named', kind: 'function' },
      constructor_signature: { shape: 'named', kind: 'function' },
      method_signature: { shape: 'wrapper', fields: [] },
      declaration: { shape: 'wrapper', fields: [] },
      type_alias: { shape: 'named', kind: 'type', nameTypes: ['type_identifier'] },
    },
    comments: ['comment', 'documentation_comment'],
    attachToNext: ['annotation'],
    blockTypes: ['class_body', 'extension_body'],
  }),
};
