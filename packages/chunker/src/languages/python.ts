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
    resync: /^(?:async\s+def|def|class)\s|^@[A-Za-z_]/,
    definitions: {
      decorated_definition: { shape: 'wrapper', fields: ['definition'] },
      function_definition: { shape: 'named', kind: 'function', body: 'statements' },
      class_definition: { shape: 'named', kind: 'class', body: 'members' },
    },
    blockTypes: ['block'],
    // `NAME = ...` at module level (UPPER_CASE: constant, else variable) and UPPER_CASE class attributes,
    // also inside a module- or class-level `if` / `try` / `with` (`try: import x; HAS_X = True except
    // ImportError: HAS_X = False`, `if sys.platform == ...: SEP = ...`); a function body is still no place.
    bindings: {
      statements: {
        expression_statement: {
          declarators: ['assignment'],
          nameField: 'left',
          // `A, B = 1, 2`, `(C, D) = ...`, `[E, *rest] = ...`
          patterns: { types: ['pattern_list', 'tuple_pattern', 'list_pattern', 'list_splat_pattern'] },
        },
      },
      wrappers: ['block', 'if_statement', 'elif_clause', 'else_clause', 'try_statement', 'except_clause', 'finally_clause', 'with_statement'],
    },
  }),
};
