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
