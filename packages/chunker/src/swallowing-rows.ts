import type { Node, Tree } from 'web-tree-sitter';

/** Most error nodes examined per parse: a file of errors is left to the parser's recovery past these. */
const MAX_ERRORS = 50;

/**
 * Rows (0-based) of `tree`'s syntax errors that swallow what follows: for each error node that runs past
 * a row where `resync` says a top-level statement starts (`def`, `class`), the non-blank rows from the
 * error's first row to the row before that one. An unclosed bracket in Python (`print((1, 2`) otherwise
 * makes every definition after it part of one error, gone from the chunks and the symbol table until
 * the line is fixed; with these rows left out of the parse (blanked), the rest parses as written.
 * Blank rows (among them rows already left out) are not listed. [] when the tree has no error.
 */
export function swallowingRows(tree: Tree, rows: readonly string[], resync: RegExp): number[] {
  if (!tree.rootNode.hasError) return [];
  const out = new Set<number>();
  for (const error of errorNodes(tree.rootNode)) {
    const first = error.startPosition.row;
    const last = error.endPosition.row;
    let restart = -1;
    for (let row = first + 1; row <= last && restart < 0; row++) if (resync.test(rows[row] ?? '')) restart = row;
    if (restart < 0) continue;
    for (let row = first; row < restart; row++) if ((rows[row] ?? '').trim() !== '') out.add(row);
  }
  return [...out].sort((a, b) => a - b);
}

/** The outermost ERROR nodes under `root`, in document order, at most {@link MAX_ERRORS}. */
function errorNodes(root: Node): Node[] {
  const found: Node[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0 && found.length < MAX_ERRORS) {
    const node = stack.pop()!;
    if (node.type === 'ERROR') {
      found.push(node);
      continue;
    }
    if (!node.hasError) continue;
    for (let i = node.childCount - 1; i >= 0; i--) {
      const child = node.child(i);
      if (child) stack.push(child);
    }
  }
  return found;
}
