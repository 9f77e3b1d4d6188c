import type { LanguageSpec } from './language-spec.js';
import { syntaxSpec } from './syntax-spec.js';

/** Python (`.py`, `.pyi`, `python` shebang). */
export const PYTHON: LanguageSpec = {
  id: 'python',
  extensions: ['.py', '.pyi', '.pyw'],
  interpreters: ['python', 'python2', 'python3'],
  strategy: 'syntax',
  syntax: syntaxSpec({
    grammar: 'tree-sitter-python.wasm',
    definitions: {
      decorated_definition: { shape: 'wrapper', fields: ['definition'] },
      function_definition: { shape: 'named', kind: 'function', body: 'statements' },
      class_definition: { shape: 'named', kind: 'class', body: 'members' },
    },
    blockTypes: ['block'],
    // `NAME = ...` at module level (UPPER_CASE: constant, else variable) and UPPER_CASE class attributes.
    bindings: { statements: { expression_statement: { declarators: ['assignment'], nameField: 'left' } } },
  }),
};
