import type { Node } from 'web-tree-sitter';
import type { BodyKind, DefinitionKind, NamedRule, SyntaxSpec } from './languages/language-spec.js';
import { testTitle } from './test-title.js';

/** A definition found at a syntax node. */
export interface Definition {
  kind: DefinitionKind;
  name: string;
  /** Scopes the definition names itself, e.g. `['Foo']` for `Foo.prototype.bar = function () {}`. */
  ownerScopes: string[];
  /** 0-based row of the signature line: the row of the name, else the declaration's first row. */
  signatureRow: number;
  /** The node whose named children are members or statements, when the body can be split. */
  body: Node | null;
  bodyKind: BodyKind | null;
  /** A function without a body: an overload signature, abstract or ambient declaration. */
  isSignature: boolean;
}

const MAX_WRAPPER_DEPTH = 4;
const MAX_NAME_CHARS = 120;

function cleanName(text: string): string {
  const name = text.replace(/^['"`]|['"`]$/g, '').replace(/\s+/g, ' ');
  return name.length > MAX_NAME_CHARS ? name.slice(0, MAX_NAME_CHARS) : name;
}

/** The body node whose children are split, or null; a block holding only another block is looked through. */
function splittable(body: Node | null, spec: SyntaxSpec): Node | null {
  let node = body;
  for (let hops = 0; node !== null && hops < 3; hops++) {
    const only: Node | null = node.namedChildCount === 1 ? node.namedChild(0) : null;
    if (only === null || !spec.blockTypes.includes(only.type)) break;
    if (spec.blockTypes.includes(node.type) && node.namedChildren.length !== 1) break;
    node = only;
  }
  return node !== null && spec.blockTypes.includes(node.type) ? node : null;
}

function firstChildOf(node: Node, types: readonly string[]): Node | null {
  return node.namedChildren.find((child) => child !== null && types.includes(child.type)) ?? null;
}

/** A `named` rule's definition: name, owner, body and kind read as the rule says (see `NamedRule`). */
function namedDefinition(node: Node, rule: NamedRule, spec: SyntaxSpec): Definition | null {
  let nameNode = rule.nameTypes ? firstChildOf(node, rule.nameTypes) : node.childForFieldName(rule.nameField ?? 'name');
  for (let hops = 0; nameNode !== null && rule.nameDescend && hops < 8; hops++) {
    const inner = nameNode.childForFieldName(rule.nameDescend);
    if (inner === null) break;
    nameNode = inner;
  }
  if (nameNode === null) return null;
  let name = cleanName(nameNode.text);
  const ownerScopes: string[] = [];
  if (rule.splitQualified) {
    const parts = name.split(/::|[.:]/).filter((part) => part !== '');
    name = parts.pop() ?? name;
    if (parts.length > 0) ownerScopes.push(parts.join('.'));
  }
  if (rule.ownerField) {
    const owner = node.childForFieldName(rule.ownerField)?.descendantsOfType('type_identifier')[0];
    if (owner) ownerScopes.push(owner.text);
  }
  if (name === '') return null;
  let kind = rule.kind;
  if (rule.kindByField) {
    const typed = node.childForFieldName(rule.kindByField.field);
    kind = (typed && rule.kindByField.kinds[typed.type]) ?? kind;
  }
  const rawBody = rule.bodyTypes ? firstChildOf(node, rule.bodyTypes) : node.childForFieldName(rule.bodyField ?? 'body');
  if (rule.requireBody && rawBody === null) return null;
  const body = splittable(rawBody, spec);
  const bodyKind = body && rule.body ? rule.body : null;
  return {
    kind,
    name,
    ownerScopes,
    signatureRow: nameNode.startPosition.row,
    body: bodyKind ? body : null,
    bodyKind,
    isSignature: kind === 'function' && rawBody === null,
  };
}

/** Elixir-style `def name(args) do ... end`: the callee says the kind, the first argument the name. */
function macroDefinition(node: Node, calls: Record<string, DefinitionKind>, spec: SyntaxSpec): Definition | null {
  const target = node.childForFieldName('target');
  const kind = target ? calls[target.text] : undefined;
  if (kind === undefined) return null;
  const argument = firstChildOf(node, ['arguments'])?.namedChild(0) ?? null;
  if (argument === null) return null;
  const nameNode = argument.type === 'call' ? argument.childForFieldName('target') : argument;
  const binary = argument.type === 'binary_operator' ? argument.childForFieldName('left') : null;
  const named = binary?.type === 'call' ? binary.childForFieldName('target') : nameNode;
  if (named === null) return null;
  const body = splittable(firstChildOf(node, ['do_block']), spec);
  const bodyKind: BodyKind = kind === 'function' ? 'statements' : 'members';
  return {
    kind,
    name: cleanName(named.text),
    ownerScopes: [],
    signatureRow: node.startPosition.row,
    body,
    bodyKind: body ? bodyKind : null,
    isSignature: false,
  };
}

/** The definition a bound value makes (`name = <value>`): a function, class or object; else null. */
function valueDefinition(value: Node | null, name: string, signatureRow: number, spec: SyntaxSpec): Definition | null {
  if (value === null) return null;
  let target: Node | null = value;
  for (let hops = 0; hops < 3 && spec.passThrough.includes(target.type); hops++) {
    const children: Node[] = target.namedChildren.filter((child): child is Node => child !== null);
    target =
      children.find((child) => spec.functionValues.includes(child.type) || spec.objectValues.includes(child.type)) ??
      children.find((child) => spec.passThrough.includes(child.type)) ??
      null;
    if (target === null) return null;
  }
  if (spec.callValues.includes(value.type)) {
    const args = value.childForFieldName('arguments');
    target = args?.namedChildren.find((arg) => arg !== null && spec.functionValues.includes(arg.type)) ?? null;
    if (target === null) return null;
  }
  if (spec.functionValues.includes(target.type)) {
    const body = splittable(target.childForFieldName('body'), spec);
    return { kind: 'function', name, ownerScopes: [], signatureRow, body, bodyKind: body ? 'statements' : null, isSignature: false };
  }
  if (spec.objectValues.includes(target.type)) {
    return { kind: 'object', name, ownerScopes: [], signatureRow, body: target, bodyKind: 'members', isSignature: false };
  }
  const rule = spec.definitions[target.type];
  if (rule?.shape === 'named' && rule.kind === 'class') {
    const body = splittable(target.childForFieldName(rule.bodyField ?? 'body'), spec);
    return { kind: 'class', name, ownerScopes: [], signatureRow, body, bodyKind: body ? 'members' : null, isSignature: false };
  }
  return null;
}

/** Whether binding `value` makes a definition of its own (a function, class or object; see `valueDefinition`). */
export function definesValue(value: Node, spec: SyntaxSpec): boolean {
  return valueDefinition(value, '', value.startPosition.row, spec) !== null;
}

/**
 * A call statement with a function argument or an IIFE: `app.get('/x', (req, reply) => {...})`,
 * `(function () {...})()`, a `callback`; or a test call (`describe('Pool', () => {...})`, `await
 * t.test('unsupported route', async (t) => {...})`, see `testTitle`), a `test` named by its title. An
 * awaited call (`spec.tests.awaits`) counts only as a test: `await retry(async () => {...})` stays plain code.
 */
function callbackDefinition(node: Node, spec: SyntaxSpec): Definition | null {
  const awaited = spec.tests?.awaits.includes(node.type) ?? false;
  const call = awaited ? (node.namedChildren.find((child) => child !== null && !spec.comments.includes(child.type)) ?? null) : node;
  if (call === null || !spec.callValues.includes(call.type)) return null;
  const test = spec.tests ? testTitle(call, spec.tests) : null;
  if (awaited && test === null) return null;
  const callee = call.childForFieldName('function');
  let fn: Node | null = null;
  let name = 'callback';
  if (callee?.type === 'parenthesized_expression') {
    fn = callee.namedChildren.find((child) => child !== null && spec.functionValues.includes(child.type)) ?? null;
    name = 'iife';
  } else {
    const args = call.childForFieldName('arguments')?.namedChildren ?? [];
    for (let i = args.length - 1; i >= 0 && fn === null; i--) {
      const arg = args[i];
      if (arg && spec.functionValues.includes(arg.type)) fn = arg;
    }
    if (callee) name = cleanName(callee.text);
  }
  const body = splittable(fn?.childForFieldName('body') ?? null, spec);
  // A test is named even when its function has no block to split (`it('adds', () => expect(add(1, 2)).toBe(3))`).
  if (test !== null && fn !== null) {
    return { kind: 'test', name: test.title, ownerScopes: [], signatureRow: test.row, body, bodyKind: body ? 'statements' : null, isSignature: false };
  }
  if (body === null) return null;
  return { kind: 'callback', name, ownerScopes: [], signatureRow: call.startPosition.row, body, bodyKind: 'statements', isSignature: false };
}

function resolve(node: Node, spec: SyntaxSpec, depth: number): Definition | null {
  const rule = spec.definitions[node.type];
  if (rule === undefined) return null;
  switch (rule.shape) {
    case 'named':
      return namedDefinition(node, rule, spec);
    case 'macro':
      return macroDefinition(node, rule.calls, spec);
    case 'wrapper': {
      if (depth >= MAX_WRAPPER_DEPTH) return null;
      let inner: Node | null = null;
      for (const field of rule.fields) {
        inner = node.childForFieldName(field);
        if (inner !== null) break;
      }
      if (rule.fields.length === 0) {
        inner = node.namedChildren.find((child) => child !== null && !spec.comments.includes(child.type) && !spec.attachToNext.includes(child.type)) ?? null;
      }
      if (inner === null) return null;
      const def = resolve(inner, spec, depth + 1);
      if (def) return def;
      // `export default function () {}` / `export default {...}`: an unnamed value is named `default`.
      if (rule.defaultName !== undefined) return valueDefinition(inner, rule.defaultName, node.startPosition.row, spec);
      return rule.callbacks ? callbackDefinition(inner, spec) : null;
    }
    case 'variable': {
      const declarator = node.namedChildren.find((child) => child !== null && rule.declarators.includes(child.type));
      const nameNode = declarator?.childForFieldName('name');
      if (!declarator || !nameNode || nameNode.type !== 'identifier') return null;
      return valueDefinition(declarator.childForFieldName('value'), cleanName(nameNode.text), nameNode.startPosition.row, spec);
    }
    case 'assignment': {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      if (left === null || right === null) return null;
      let name: string;
      let owner: string[] = [];
      if (left.type === 'member_expression') {
        const object = left.childForFieldName('object')?.text ?? '';
        const property = cleanName(left.childForFieldName('property')?.text ?? '');
        if (object === 'module' && property === 'exports') {
          name = cleanName(right.childForFieldName('name')?.text ?? 'module.exports');
        } else {
          name = property;
          const ownerName = object.replace(/\.prototype$/, '');
          if (ownerName !== 'exports' && ownerName !== 'module.exports' && ownerName !== 'this') owner = [cleanName(ownerName)];
        }
      } else if (left.type === 'identifier') {
        name = left.text;
      } else {
        return null;
      }
      if (name === '') return null;
      const def = valueDefinition(right, name, left.startPosition.row, spec);
      if (def) def.ownerScopes = owner;
      return def;
    }
    case 'field': {
      let nameNode: Node | null = null;
      for (const field of rule.nameFields) {
        nameNode = node.childForFieldName(field);
        if (nameNode !== null) break;
      }
      if (nameNode === null) return null;
      return valueDefinition(node.childForFieldName('value'), cleanName(nameNode.text), nameNode.startPosition.row, spec);
    }
  }
}

/**
 * The definition at a syntax node (function, method, class, interface, type, enum, namespace, or a
 * function/object bound by a variable, field, property or assignment), read through the language's
 * rules; null when the node is not one (module code).
 */
export function resolveDefinition(node: Node, spec: SyntaxSpec): Definition | null {
  return resolve(node, spec, 0);
}
