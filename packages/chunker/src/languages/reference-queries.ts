/**
 * Tree-sitter queries for references, by language id, written against the grammar builds of
 * `@cursorless/tree-sitter-wasms` 0.7.0 (a query must match the grammar it runs on). Captures:
 * `@call` (the callee's own name at a call site or `new X()`), `@import` (an imported name),
 * `@export` (an exported name). Modelled on each grammar's `queries/tags.scm` (`@reference.call`).
 * Captures whose name starts with `_` only serve predicates (`#eq?`) and are not references.
 */
const ECMASCRIPT = `
(call_expression function: [(identifier) @call (member_expression property: [(property_identifier) (private_property_identifier)] @call)])
(new_expression constructor: [(identifier) @call (member_expression property: (property_identifier) @call)])
(import_specifier name: (identifier) @import)
(import_clause (identifier) @import)
(namespace_import (identifier) @import)
(export_specifier name: (identifier) @export)
(variable_declarator
  name: (object_pattern [
    (shorthand_property_identifier_pattern) @import
    (pair_pattern key: (property_identifier) @import)
    (object_assignment_pattern left: (shorthand_property_identifier_pattern) @import)])
  value: (call_expression function: (identifier) @_require)
  (#eq? @_require "require"))
(variable_declarator
  name: (identifier) @import
  value: (call_expression function: (identifier) @_require)
  (#eq? @_require "require"))
`;

const C_CALLS = `(call_expression function: [(identifier) @call (field_expression field: (field_identifier) @call)])`;

export const REFERENCE_QUERIES: Readonly<Record<string, string>> = {
  typescript: ECMASCRIPT,
  tsx: ECMASCRIPT,
  javascript: ECMASCRIPT,
  python: `
(call function: [(identifier) @call (attribute attribute: (identifier) @call)])
(import_statement name: (dotted_name (identifier) @import .))
(import_from_statement name: (dotted_name (identifier) @import .))
(aliased_import name: (dotted_name (identifier) @import .))
`,
  go: `(call_expression function: [(identifier) @call (selector_expression field: (field_identifier) @call)])`,
  rust: `
(call_expression function: [(identifier) @call (field_expression field: (field_identifier) @call) (scoped_identifier name: (identifier) @call)])
(macro_invocation macro: (identifier) @call)
(use_declaration argument: (scoped_identifier name: (identifier) @import))
(use_list (identifier) @import)
`,
  java: `
(method_invocation name: (identifier) @call)
(object_creation_expression type: (type_identifier) @call)
(import_declaration (scoped_identifier name: (identifier) @import))
`,
  c: C_CALLS,
  cpp: `
(call_expression function: [(identifier) @call (field_expression field: (field_identifier) @call) (qualified_identifier name: (identifier) @call)])
(new_expression type: (type_identifier) @call)
`,
  csharp: `
(invocation_expression function: [(identifier) @call (member_access_expression name: (identifier) @call)])
(object_creation_expression type: (identifier) @call)
`,
  ruby: `(call method: (identifier) @call)`,
  php: `
(function_call_expression function: (name) @call)
(member_call_expression name: (name) @call)
(scoped_call_expression name: (name) @call)
(object_creation_expression (name) @call)
(namespace_use_clause (qualified_name (name) @import))
`,
  bash: `(command name: (command_name (word) @call))`,
  kotlin: `
(call_expression (simple_identifier) @call)
(call_expression (navigation_expression (navigation_suffix (simple_identifier) @call)))
`,
  swift: `
(call_expression (simple_identifier) @call)
(call_expression (navigation_expression suffix: (navigation_suffix suffix: (simple_identifier) @call)))
`,
  scala: `(call_expression function: [(identifier) @call (field_expression field: (identifier) @call)])`,
  lua: `(function_call name: [(identifier) @call (dot_index_expression field: (identifier) @call) (method_index_expression method: (identifier) @call)])`,
  elixir: `
((call target: (identifier) @call)
 (#not-match? @call "^(def|defp|defmodule|defmacro|defmacrop|defguard|defdelegate|defprotocol|defimpl|defstruct|import|alias|require|use)$"))
(call target: (dot right: (identifier) @call))
`,
  dart: `((identifier) @call . (selector (argument_part)))`,
};
