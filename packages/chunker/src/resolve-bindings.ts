import type { Node } from 'web-tree-sitter';
import type { BindingRule, SyntaxSpec } from './languages/language-spec.js';
import { definesValue } from './resolve-definition.js';

/** Kind of a module- or class-level binding in the symbol table. */
export type BindingKind = 'constant' | 'variable';

/** Where a binding statement stands: a module (file or namespace body), a class body, or a body that is class-level throughout (Scala `object`). */
export type BindingLevel = 'module' | 'class' | 'static';

/** One name bound by a statement, with the node whose lines it covers. */
export interface Binding {
  name: string;
  kind: BindingKind;
  node: Node;
}

/** Fields where a statement's names or values begin: its modifier words all come before. */
const NAME_FIELDS = new Set(['name', 'property', 'pattern', 'left', 'declarator', 'value']);
const MAX_WORD_DEPTH = 3;

/** No lower-case letter and at least one upper-case one: `MAX_RETRIES`, `_T`, not `__all__`. */
export function isUpperCaseName(name: string): boolean {
  return /^[A-Z_$][A-Z0-9_$]*$/.test(name) && /[A-Z]/.test(name);
}

/**
 * The statement's modifier words: leaf texts (`MAX_WORD_DEPTH` deep) of its children before its first
 * declarator or name, leaving out its type (`&'static str` is no `static`).
 */
function wordsOf(statement: Node, stops: ReadonlySet<number>): Set<string> {
  const words = new Set<string>();
  const leaves = (node: Node, depth: number): void => {
    if (node.childCount === 0) words.add(node.text);
    else if (depth < MAX_WORD_DEPTH) for (const child of node.children) if (child) leaves(child, depth + 1);
  };
  for (let i = 0; i < statement.childCount; i++) {
    const child = statement.child(i);
    const field = statement.fieldNameForChild(i);
    if (child === null || stops.has(child.id) || (field !== null && NAME_FIELDS.has(field))) break;
    if (field !== 'type') leaves(child, 1);
  }
  return words;
}

/** The statement's declarators, and the child holding them (the statement itself unless `declaratorsIn`). */
function declaratorsOf(statement: Node, rule: BindingRule): { holder: Node | null; declarators: Node[] } {
  if (rule.declarators === undefined) return { holder: null, declarators: [statement] };
  const types = rule.declarators;
  const holder = rule.declaratorsIn ? statement.namedChildren.find((child) => child?.type === rule.declaratorsIn) ?? null : statement;
  return { holder, declarators: (holder?.namedChildren ?? []).filter((child): child is Node => child !== null && types.includes(child.type)) };
}

/** Name nodes of one declarator, followed through `rule.through`; only identifiers count. */
function namesOf(declarator: Node, rule: BindingRule): Node[] {
  const identifiers = rule.identifiers ?? ['identifier'];
  // A C declarator is its own name, or leads to it (`*p`, `x = 1`, `a[3]`).
  const found = identifiers.includes(declarator.type) || rule.through?.types.includes(declarator.type)
    ? [declarator]
    : rule.nameTypes
    ? [declarator.namedChildren.find((child) => child !== null && rule.nameTypes?.includes(child.type)) ?? null]
    : declarator.childrenForFieldName(rule.nameField ?? 'name');
  const names: Node[] = [];
  for (let node of found) {
    for (let hops = 0; node && rule.through?.types.includes(node.type) && hops < 8; hops++) node = node.childForFieldName(rule.through.field);
    if (node && identifiers.includes(node.type)) names.push(node);
    else if (node && rule.patterns?.types.includes(node.type)) patternNames(node, rule.patterns, identifiers, names, 0);
  }
  return names;
}

/** Deepest destructuring pattern followed (`[[a, [b]]]`); deeper names are left out. */
const MAX_PATTERN_DEPTH = 8;

/** The identifiers a destructuring pattern binds, in source order (see `BindingRule.patterns`). */
function patternNames(node: Node, patterns: NonNullable<BindingRule['patterns']>, identifiers: readonly string[], out: Node[], depth: number): void {
  if (identifiers.includes(node.type) || patterns.identifiers?.includes(node.type)) {
    out.push(node);
    return;
  }
  if (depth >= MAX_PATTERN_DEPTH) return;
  const field = patterns.follow?.[node.type];
  if (field !== undefined) {
    const next = node.childForFieldName(field);
    if (next) patternNames(next, patterns, identifiers, out, depth + 1);
    return;
  }
  if (!patterns.types.includes(node.type)) return;
  for (const child of node.namedChildren) if (child) patternNames(child, patterns, identifiers, out, depth + 1);
}

/** A call of a `skipCalls` callee, also under a member or a further call: `require('x')`, `require('x').y`, `require('x')(opts)`. */
function isSkippedCall(value: Node, rule: BindingRule, spec: SyntaxSpec): boolean {
  if (!rule.skipCalls) return false;
  let node: Node | null = value;
  for (let hops = 0; node !== null && hops < 8; hops++) {
    if (spec.callValues.includes(node.type)) {
      const callee: Node | null = node.childForFieldName('function');
      if (callee !== null && rule.skipCalls.includes(callee.text)) return true;
      node = callee;
    } else {
      node = node.type === 'member_expression' ? node.childForFieldName('object') : null;
    }
  }
  return false;
}

/** A value that is a definition already (function, class, object) or an import (`require('x')`). */
function isDefinitionOrImport(declarator: Node, rule: BindingRule, spec: SyntaxSpec): boolean {
  const value = rule.valueField ? declarator.childForFieldName(rule.valueField) : null;
  if (value === null) return false;
  return isSkippedCall(value, rule, spec) || definesValue(value, spec);
}

/**
 * The constants and variables `statement` binds under `rule` (see `BindingRule`), at `level`: every binding
 * at module level; in a class body only constants, and only class-level ones (`classWords`, e.g. `static`,
 * unless the body is `static`). Each binding covers the statement's lines, or its declarator's when the
 * statement has several (Go's `const ( ... )` block).
 */
export function resolveBindings(statement: Node, rule: BindingRule, spec: SyntaxSpec, level: BindingLevel): Binding[] {
  const { holder, declarators } = declaratorsOf(statement, rule);
  if (declarators.length === 0) return [];
  const stops = new Set(holder === null ? [] : [holder.id, ...declarators.map((node) => node.id)]);
  const words = wordsOf(statement, stops);
  if (rule.skipWords?.some((word) => words.has(word))) return [];
  if (level === 'class' && rule.classWords && !rule.classWords.some((word) => words.has(word))) return [];
  const mutable = rule.variableWords?.some((word) => words.has(word)) ?? false;
  const declaredConstant = rule.constant === true || (rule.constantWords?.some((word) => words.has(word)) ?? false);
  const bindings: Binding[] = [];
  for (const declarator of declarators) {
    if (rule.valueRequired && rule.valueField && declarator.childForFieldName(rule.valueField) === null) continue;
    if (isDefinitionOrImport(declarator, rule, spec)) continue;
    for (const nameNode of namesOf(declarator, rule)) {
      const name = nameNode.text;
      const constant = !mutable && (declaredConstant || (rule.constantNames ?? []).includes(nameNode.type) || isUpperCaseName(name));
      if (level !== 'module' && !constant) continue;
      bindings.push({ name, kind: constant ? 'constant' : 'variable', node: declarators.length > 1 ? declarator : statement });
    }
  }
  return bindings;
}
