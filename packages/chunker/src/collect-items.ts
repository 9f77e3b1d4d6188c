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
  /** A doc comment (`isDocComment`): attaches to a definition below it across blank rows too. */
  doc: boolean;
}

/** Doc-comment openers: JSDoc/Javadoc/PHPDoc/KDoc `/**`, Doxygen `/*!`, `///` (Rust, C#, Swift, Dart, C++), LDoc `---`. */
const DOC_OPENER = /^(?:\/\*\*(?![*/])|\/\*!|\/\/\/(?!\/)|---(?!-))/;
/** Tags of a file-level doc block, which documents the file rather than the definition after it. */
const FILE_DOC_TAG = /@(?:file|fileoverview|overview|module|packageDocumentation|license|copyright)\b/;

/**
 * A comment that documents the definition below it even when blank rows stand between (tools such as
 * JSDoc, rustdoc and Doxygen attach it). Go's `//` and Python's `#` are not: a Go doc comment must touch
 * its declaration, and a Python definition's documentation is its docstring, so a blank-separated
 * comment there is a section note.
 */
function isDocComment(text: string): boolean {
  return DOC_OPENER.test(text) && !FILE_DOC_TAG.test(text);
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
 * and decorators join it, and so does a doc comment above a definition with only blank rows between;
 * an overload signature joins the definition of the same name after it.
 * Items come out in order and never share a row.
 * @param isBlank whether a row is blank (rows between a doc comment and a definition must be)
 */
export function collectItems(nodes: readonly (Node | null)[], spec: SyntaxSpec, isBlank: (row: number) => boolean): Item[] {
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
      prev.doc = false;
      continue;
    }
    raw.push({ start, end, def, attach, doc: attach === 'comment' && isDocComment(node.text) });
  }
  /** A doc comment above a definition (not a callback), only blank rows between. */
  const docAbove = (item: RawItem, next: RawItem): boolean => {
    if (!item.doc || next.def === null || next.def.kind === 'callback') return false;
    for (let row = item.end + 1; row < next.start; row++) if (!isBlank(row)) return false;
    return true;
  };
  const items: RawItem[] = [];
  for (let i = raw.length - 1; i >= 0; i--) {
    const item = raw[i] as RawItem;
    const next = items[items.length - 1];
    if (next && item.attach !== null && (item.attach === 'decorator' || next.start === item.end + 1 || docAbove(item, next))) {
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
