import type { Node } from 'web-tree-sitter';
import { testTitleName } from '@monorag/shared';
import type { TestCallSpec } from './languages/language-spec.js';

/** Most names in a callee chain (`test.describe.parallel.only` has four). */
const MAX_CHAIN = 6;

/**
 * The names of a callee chain, object first: `it.only` -> `['it', 'only']`, `t.test` -> `['t', 'test']`;
 * a callee that is itself a call (`describe.each(table)`, `test.skipIf(cond)`) is read as its own callee.
 * Null for anything else (`this.test`, `fns[0]`, `(await import('node:test')).test`).
 */
function calleeChain(callee: Node): string[] | null {
  const names: string[] = [];
  let node: Node | null = callee.type === 'call_expression' ? callee.childForFieldName('function') : callee;
  while (node !== null && names.length < MAX_CHAIN) {
    if (node.type === 'identifier') return [node.text, ...names];
    if (node.type !== 'member_expression') return null;
    const property = node.childForFieldName('property');
    if (property?.type !== 'property_identifier') return null;
    names.unshift(property.text);
    node = node.childForFieldName('object');
  }
  return null;
}

/** Whether a callee chain names a test function (see `TestCallSpec`). */
function isTestChain(chain: readonly string[], tests: TestCallSpec): boolean {
  const rest = (from: number): boolean => chain.slice(from).every((name) => tests.properties.includes(name));
  if (tests.functions.includes(chain[0] as string)) return rest(1);
  for (let i = chain.length - 1; i >= 1; i--) if (tests.members.includes(chain[i] as string)) return rest(i + 1);
  return false;
}

/** The text of a string literal with its escapes decoded (`'it\'s'` -> `it's`; `\n` and `\t` read as spaces). */
function literalText(literal: Node): string {
  let text = '';
  for (const part of literal.namedChildren) {
    if (part === null) continue;
    if (part.type !== 'escape_sequence') {
      text += part.text;
      continue;
    }
    const escaped = part.text.slice(1);
    if (/^[ntrvf]$/.test(escaped)) text += ' ';
    else if (/^(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4})$/.test(escaped)) text += String.fromCharCode(parseInt(escaped.slice(1), 16));
    else if (/^u\{[0-9a-fA-F]+\}$/.test(escaped)) text += String.fromCodePoint(Math.min(parseInt(escaped.slice(2, -1), 16), 0x10ffff));
    else if (!escaped.startsWith('\n')) text += escaped; // a line continuation adds nothing
  }
  return text;
}

/** A test call's title and the 0-based row it starts on (the test's signature row: `await t.test(` alone says nothing). */
export interface TestTitle {
  title: string;
  row: number;
}

/**
 * The title of a test call (`it('retries on 503', ...)`, `describe.each(table)('adds %i', ...)`,
 * `t.test(\`unsupported route\`, ...)`): its first argument when that is a string literal or a template
 * literal without substitutions, its escapes decoded, then as the symbol table stores titles (`testTitleName`:
 * runs of whitespace as one space, trimmed, capped at `MAX_TEST_TITLE_CHARS`). Null when the callee is no test function (`app.get('/x', handler)`) or the title is not a
 * non-empty literal (`test(name, ...)`, `test(\`GET ${path}\`, ...)`).
 * @param call a call expression of the JavaScript family's grammars
 */
export function testTitle(call: Node, tests: TestCallSpec): TestTitle | null {
  const callee = call.childForFieldName('function');
  const chain = callee ? calleeChain(callee) : null;
  if (chain === null || !isTestChain(chain, tests)) return null;
  const first = call.childForFieldName('arguments')?.namedChildren.find((arg) => arg !== null && arg.type !== 'comment') ?? null;
  if (first === null) return null;
  if (first.type !== 'string' && (first.type !== 'template_string' || first.namedChildren.some((part) => part?.type === 'template_substitution'))) return null;
  const title = testTitleName(literalText(first));
  if (title === '') return null;
  return { title, row: first.startPosition.row };
}
