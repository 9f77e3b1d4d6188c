import type { LanguageSpec } from './language-spec.js';
import { syntaxSpec } from './syntax-spec.js';

/** Ruby (`.rb`, `ruby` shebang): modules, classes, methods and singleton methods (`def self.x`). */
export const RUBY: LanguageSpec = {
  id: 'ruby',
  extensions: ['.rb', '.rake', '.gemspec', '.ru'],
  interpreters: ['ruby'],
  fileNames: ['rakefile', 'gemfile'],
  strategy: 'syntax',
  syntax: syntaxSpec({
    grammar: 'tree-sitter-ruby.wasm',
    definitions: {
      module: { shape: 'named', kind: 'namespace', body: 'members', splitQualified: true },
      class: { shape: 'named', kind: 'class', body: 'members', splitQualified: true },
      singleton_class: { shape: 'named', kind: 'class', nameField: 'value', body: 'members' },
      method: { shape: 'named', kind: 'function', body: 'statements' },
      singleton_method: { shape: 'named', kind: 'function', body: 'statements' },
    },
    blockTypes: ['body_statement'],
    // `Name = ...` is a constant (the language's rule: a capitalised name), `name = ...` at top level a variable.
    bindings: { statements: { assignment: { nameField: 'left', identifiers: ['identifier', 'constant'], constantNames: ['constant'] } } },
  }),
};

/** PHP (`.php`): namespaces, classes, interfaces, traits, enums, functions and methods; attributes are part of the node. */
export const PHP: LanguageSpec = {
  id: 'php',
  extensions: ['.php', '.phtml', '.php8'],
  interpreters: ['php'],
  strategy: 'syntax',
  syntax: syntaxSpec({
    grammar: 'tree-sitter-php.wasm',
    definitions: {
      class_declaration: { shape: 'named', kind: 'class', body: 'members' },
      interface_declaration: { shape: 'named', kind: 'interface', body: 'members' },
      trait_declaration: { shape: 'named', kind: 'class', body: 'members' },
      enum_declaration: { shape: 'named', kind: 'enum', body: 'members' },
      function_definition: { shape: 'named', kind: 'function', body: 'statements' },
      method_declaration: { shape: 'named', kind: 'function', body: 'statements' },
    },
    blockTypes: ['declaration_list', 'compound_statement', 'enum_declaration_list'],
    // `const X = ...` at top level, in a namespace block and in classes (not `define('X', ...)`).
    bindings: {
      statements: { const_declaration: { declarators: ['const_element'], nameTypes: ['name'], identifiers: ['name'], constant: true } },
      wrappers: ['namespace_definition', 'compound_statement'],
    },
  }),
};

/** Bash (`.sh`, `.bash`, sh/bash/zsh shebangs): functions (`f() {}` and `function f {}`). */
export const BASH: LanguageSpec = {
  id: 'bash',
  extensions: ['.sh', '.bash', '.zsh', '.ksh'],
  interpreters: ['sh', 'bash', 'zsh', 'ksh', 'dash'],
  fileNames: ['.bashrc', '.zshrc', '.profile', '.bash_profile'],
  strategy: 'syntax',
  syntax: syntaxSpec({
    grammar: 'tree-sitter-bash.wasm',
    definitions: {
      function_definition: { shape: 'named', kind: 'function', body: 'statements' },
    },
    blockTypes: ['compound_statement'],
    // Top-level `NAME=value` (UPPER_CASE: constant) and `readonly` / `declare -r` (constant), `export`, `declare`.
    bindings: {
      statements: {
        variable_assignment: { identifiers: ['variable_name'] },
        declaration_command: { declarators: ['variable_assignment'], identifiers: ['variable_name'], constantWords: ['readonly', '-r'], skipWords: ['local'] },
      },
    },
  }),
};

/** Lua (`.lua`, `lua` shebang): functions; `function M.f()` / `M:f()` is `f` in scope `M`. */
export const LUA: LanguageSpec = {
  id: 'lua',
  extensions: ['.lua'],
  interpreters: ['lua', 'luajit'],
  strategy: 'syntax',
  syntax: syntaxSpec({
    grammar: 'tree-sitter-lua.wasm',
    definitions: {
      function_declaration: { shape: 'named', kind: 'function', body: 'statements', splitQualified: true },
    },
    blockTypes: ['block'],
    // Top-level `local x = ...` and global `x = ...` (UPPER_CASE: constant); `M.x = ...` is no binding.
    bindings: {
      statements: {
        variable_declaration: { declaratorsIn: 'assignment_statement', declarators: ['variable_list'] },
        assignment_statement: { declarators: ['variable_list'] },
      },
    },
  }),
};

/** Elixir (`.ex`, `.exs`): `defmodule`, `def`/`defp`/`defmacro`, protocols; `@doc` and other attributes attach to the next item. */
export const ELIXIR: LanguageSpec = {
  id: 'elixir',
  extensions: ['.ex', '.exs'],
  interpreters: ['elixir'],
  strategy: 'syntax',
  syntax: syntaxSpec({
    grammar: 'tree-sitter-elixir.wasm',
    definitions: {
      call: {
        shape: 'macro',
        calls: {
          defmodule: 'namespace',
          defprotocol: 'interface',
          defimpl: 'namespace',
          def: 'function',
          defp: 'function',
          defmacro: 'function',
          defmacrop: 'function',
          defguard: 'function',
          defdelegate: 'function',
        },
      },
    },
    attachToNext: ['unary_operator'],
    blockTypes: ['do_block'],
  }),
};
