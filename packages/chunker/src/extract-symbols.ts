import type { CodeSymbol } from '@monorag/shared';
import type { Node, Query, Tree } from 'web-tree-sitter';
import { lastRowOf } from './collect-items.js';
import type { SyntaxSpec } from './languages/language-spec.js';
import { resolveBindings, type BindingLevel } from './resolve-bindings.js';
import { resolveDefinition, type Definition } from './resolve-definition.js';

/** Most symbol rows kept per file (a generated file can hold hundreds of thousands of calls). */
export const MAX_SYMBOLS_PER_FILE = 20_000;
/** Longest qualified scope name kept, in characters; deeper scopes keep their owner's (bounds deep nesting to linear work). */
const MAX_QUALIFIED_CHARS = 200;
/** Most syntax nodes visited per file while looking for definitions. */
const MAX_VISITED_NODES = 2_000_000;

/** Joins a test's title to the titles around it in `enclosing` (`Pool > close()`), as result scopes are shown. */
const TEST_SCOPE_SEPARATOR = ' > ';

interface Scope {
  /** End byte of the definition's node: the scope is open while the walk is before it. */
  endIndex: number;
  qualified: string;
  /** Index in `functions` of this scope when it is a function, else of the function around it, or -1. */
  functionIndex: number;
  isFunction: boolean;
  /** A titled test: names inside it are joined to its title with ` > ` (a title holds spaces and dots). */
  isTest: boolean;
  /** A class, interface, enum or object: functions directly inside are methods. */
  hasMethods: boolean;
  /** Id of the body node whose statements are module- or class-level bindings (namespaces, classes), else null. */
  bindingBody: number | null;
  bindingLevel: BindingLevel;
}

interface FunctionRange {
  start: number;
  end: number;
  qualified: string;
  /** Index of the function around this one, or -1. */
  parent: number;
}

function definitionKind(def: Definition, owner: Scope | undefined): string {
  if (def.kind === 'function') return owner?.hasMethods || def.ownerScopes.length > 0 ? 'method' : 'function';
  if (def.kind === 'namespace' || def.kind === 'object') return 'module';
  return def.kind;
}

/**
 * Where a binding statement stands: at module level (its parent is the file, through `wrappers` such as
 * `export_statement`), in the body of the innermost open namespace or class scope, or nowhere (a function
 * body, a block, an object literal): then null.
 */
function bindingPlace(node: Node, root: Node, owner: Scope | undefined, wrappers: readonly string[]): { level: BindingLevel; enclosing: string | null } | null {
  for (let parent = node.parent, hops = 0; parent !== null && hops < 8; parent = parent.parent, hops++) {
    if (parent.id === root.id) return { level: 'module', enclosing: null };
    if (owner && parent.id === owner.bindingBody) return { level: owner.bindingLevel, enclosing: owner.qualified };
    if (!wrappers.includes(parent.type)) return null;
  }
  return null;
}

/**
 * The symbol table of one parsed file: definitions found by the language's definition rules (the
 * same rules that shape chunks; `callback` pseudo-definitions are left out; a titled test is kind `test`,
 * named by its title) with their enclosing scopes (a nested test's: the titles around it),
 * module- and class-level constants and variables read by `spec.bindings` (kind `constant` or `variable`;
 * see `resolveBindings`), and references matched by `query` (see `REFERENCE_QUERIES`; captures named `_...`
 * are skipped), each with the innermost function that contains it (a test counts as one). A reference on
 * a definition's signature row with the definition's name is dropped, so a definition is never reported as a call. The walk is iterative (deep nesting cannot overflow the stack)
 * and bounded: at most `MAX_SYMBOLS_PER_FILE` rows.
 */
export function extractSymbols(tree: Tree, spec: SyntaxSpec, query: Query | null): CodeSymbol[] {
  const symbols: CodeSymbol[] = [];
  const definitionNames = new Set<string>();
  const functions: FunctionRange[] = [];
  const scopes: Scope[] = [];
  const bindingRules = spec.bindings?.statements ?? {};
  const wrappers = spec.bindings?.wrappers ?? [];
  const staticScopes = spec.bindings?.staticScopes ?? [];
  const cursor = tree.walk();
  let visited = 0;
  try {
    walk: for (;;) {
      const node = cursor.currentNode;
      while (scopes.length > 0 && node.startIndex >= (scopes[scopes.length - 1] as Scope).endIndex) scopes.pop();
      const bindingRule = bindingRules[node.type];
      // Placed before this node's own definition (if any) opens a scope: `const f = () => {}, N = 1` binds N at module level.
      const place = bindingRule ? bindingPlace(node, tree.rootNode, scopes[scopes.length - 1], wrappers) : null;
      if (spec.definitions[node.type] !== undefined && symbols.length < MAX_SYMBOLS_PER_FILE) {
        const def = resolveDefinition(node, spec);
        const key = def ? `${def.signatureRow}:${def.name}` : '';
        if (def && def.kind !== 'callback' && !definitionNames.has(key)) {
          const owner = scopes[scopes.length - 1];
          const ownerParts = [...(owner ? [owner.qualified] : []), ...def.ownerScopes];
          const isTest = def.kind === 'test';
          const separator = isTest || owner?.isTest ? TEST_SCOPE_SEPARATOR : '.';
          const joined = ownerParts.join(separator);
          const qualified = joined.length > MAX_QUALIFIED_CHARS ? joined : [...ownerParts, def.name].join(separator);
          definitionNames.add(key);
          symbols.push({
            name: def.name,
            kind: definitionKind(def, owner),
            role: 'definition',
            startLine: node.startPosition.row + 1,
            endLine: lastRowOf(node) + 1,
            enclosing: ownerParts.length > 0 ? joined : null,
          });
          // A test is a function here: the calls in `it('retries on 503', ...)` are made by that test.
          const isFunction = def.kind === 'function' || isTest;
          let functionIndex = owner?.functionIndex ?? -1;
          if (isFunction) {
            functions.push({ start: node.startIndex, end: node.endIndex, qualified, parent: functionIndex });
            functionIndex = functions.length - 1;
          }
          const hasMethods = def.kind === 'class' || def.kind === 'interface' || def.kind === 'enum' || def.kind === 'object';
          const holdsBindings = (hasMethods && def.kind !== 'object') || def.kind === 'namespace';
          scopes.push({
            endIndex: node.endIndex,
            qualified,
            functionIndex,
            isFunction,
            isTest,
            hasMethods,
            bindingBody: holdsBindings && def.body ? def.body.id : null,
            bindingLevel: def.kind === 'namespace' ? 'module' : staticScopes.includes(node.type) ? 'static' : 'class',
          });
        }
      }
      if (bindingRule && place) {
        for (const binding of resolveBindings(node, bindingRule, spec, place.level)) {
          if (symbols.length >= MAX_SYMBOLS_PER_FILE) break;
          // Not added to `definitionNames`: a binding's row keeps its references (`const x = x()`).
          symbols.push({
            name: binding.name,
            kind: binding.kind,
            role: 'definition',
            startLine: binding.node.startPosition.row + 1,
            endLine: lastRowOf(binding.node) + 1,
            enclosing: place.enclosing,
          });
        }
      }
      if (++visited > MAX_VISITED_NODES) break;
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) break walk;
      }
    }
  } finally {
    cursor.delete();
  }
  if (query === null) return symbols;

  for (const capture of query.captures(tree.rootNode)) {
    if (symbols.length >= MAX_SYMBOLS_PER_FILE) break;
    if (capture.name.startsWith('_')) continue; // a predicate's helper capture, e.g. `@_require`
    const node = capture.node;
    const row = node.startPosition.row;
    if (definitionNames.has(`${row}:${node.text}`)) continue;
    symbols.push({
      name: node.text,
      kind: capture.name,
      role: 'reference',
      startLine: row + 1,
      endLine: node.endPosition.row + 1,
      enclosing: enclosingFunction(functions, node.startIndex, node.endIndex),
    });
  }
  return symbols;
}

/** Qualified name of the innermost function holding bytes `start..end`; `functions` is in document order. */
function enclosingFunction(functions: readonly FunctionRange[], start: number, end: number): string | null {
  let low = 0;
  let high = functions.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if ((functions[mid] as FunctionRange).start <= start) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  while (found >= 0) {
    const fn = functions[found] as FunctionRange;
    if (fn.start <= start && end <= fn.end) return fn.qualified;
    found = fn.parent;
  }
  return null;
}
