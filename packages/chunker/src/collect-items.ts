import type { Node } from 'web-tree-sitter';
import type { SyntaxSpec } from './languages/language-spec.js';
import { resolveDefinition, type Definition } from './resolve-definition.js';

/** A run of whole rows holding one statement or member (with its attached comments), or several on shared rows. */
export interface Item {
  /** First row, 0-based, including attached comments and decorators. */
  start: number;
  /** Last row, 0-based inclusive. */
  end: number;
  /** The definition the item holds, or null for other code. */
  def: Definition | null;
}

interface RawItem extends Item {
  /** Comment or decorator that may attach to the next item. */
  attach: 'comment' | 'decorator' | null;
}

/** Last row a node really occupies (a node ending at column 0 ends on the row before). */
export function lastRowOf(node: Node): number {
  const end = node.endPosition;
  const start = node.startPosition.row;
  return end.column === 0 && end.row > start ? end.row - 1 : end.row;
}

/**
 * Turns sibling nodes (a program's, class body's or block's named children) into row items:
 * nodes sharing a row merge into one item; comments directly above an item (no blank row between)
 * and decorators join it; an overload signature joins the definition of the same name after it.
 * Items come out in order and never share a row.
 */
export function collectItems(nodes: readonly (Node | null)[], spec: SyntaxSpec): Item[] {
  const raw: RawItem[] = [];
  for (const node of nodes) {
    if (node === null) continue;
    const start = node.startPosition.row;
    const end = lastRowOf(node);
    const attach = spec.comments.includes(node.type) ? 'comment' : spec.attachToNext.includes(node.type) ? 'decorator' : null;
    const def = attach === null ? resolveDefinition(node, spec) : null;
    const prev = raw[raw.length - 1];
    if (prev && start <= prev.end) {
      prev.end = Math.max(prev.end, end);
      if (prev.def === null) prev.def = def;
      prev.attach = prev.attach !== null && attach !== null ? prev.attach : null;
      continue;
    }
    raw.push({ start, end, def, attach });
  }
  const items: RawItem[] = [];
  for (let i = raw.length - 1; i >= 0; i--) {
    const item = raw[i] as RawItem;
    const next = items[items.length - 1];
    if (next && item.attach !== null && (item.attach === 'decorator' || next.start === item.end + 1)) {
      next.start = item.start;
      continue;
    }
    items.push(item);
  }
  items.reverse();
  const merged: Item[] = [];
  for (const item of items) {
    const prev = merged[merged.length - 1];
    if (prev?.def?.isSignature && item.def && item.def.name === prev.def.name && item.def.kind === prev.def.kind) {
      // Keep the first overload's line as the signature: it is the public one.
      prev.def = { ...item.def, signatureRow: prev.def.signatureRow };
      prev.end = item.end;
      continue;
    }
    merged.push({ start: item.start, end: item.end, def: item.def });
  }
  return merged;
}
