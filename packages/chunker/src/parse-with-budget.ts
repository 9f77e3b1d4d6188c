import type { Parser, Tree } from 'web-tree-sitter';

/**
 * Parses `text`, cancelling when parsing takes longer than `timeoutMs` milliseconds.
 * @returns the tree (the caller must `delete()` it), or null when cancelled or failed
 */
export function parseWithBudget(parser: Parser, text: string, timeoutMs: number): Tree | null {
  const deadline = performance.now() + timeoutMs;
  const tree = parser.parse(text, null, { progressCallback: () => performance.now() > deadline });
  // A cancelled parser resumes where it stopped unless reset; the next file must start afresh.
  if (tree === null) parser.reset();
  return tree;
}
