import type { Node } from 'web-tree-sitter';
import type { BodyKind, DefinitionKind, SyntaxSpec } from './languages/language-spec.js';

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

function splittable(body: Node | null, spec: SyntaxSpec): Node | null {
  return body !== null && spec.blockTypes.includes(body.type) ? body : null;
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

/** A call statement with a function argument or an IIFE: `describe('x', () => {...})`, `(function () {...})()`. */
function callbackDefinition(call: Node, spec: SyntaxSpec): Definition | null {
  if (!spec.callValues.includes(call.type)) return null;
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
  if (body === null) return null;
  return { kind: 'callback', name, ownerScopes: [], signatureRow: call.startPosition.row, body, bodyKind: 'statements', isSignature: false };
}

function resolve(node: Node, spec: SyntaxSpec, depth: number): Definition | null {
  const rule = spec.definitions[node.type];
  if (rule === undefined) return null;
  switch (rule.shape) {
    case 'named': {
      const nameNode = node.childForFieldName(rule.nameField ?? 'name');
      if (nameNode === null) return null;
      const body = splittable(node.childForFieldName(rule.bodyField ?? 'body'), spec);
      const bodyKind = body && rule.body ? rule.body : null;
      return {
        kind: rule.kind,
        name: cleanName(nameNode.text),
        ownerScopes: [],
        signatureRow: nameNode.startPosition.row,
        body: bodyKind ? body : null,
        bodyKind,
        isSignature: rule.kind === 'function' && node.childForFieldName(rule.bodyField ?? 'body') === null,
      };
    }
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
