/**
 * The first whole lines of `content` that fit in `maxChars` characters (at least one line, itself cut
 * at maxChars when longer), with `…` appended when anything was left out.
 */
export function makeSnippet(content: string, maxChars: number): string {
  if (content.length <= maxChars) return content;
  const cut = content.lastIndexOf('\n', maxChars);
  const head = cut > 0 ? content.slice(0, cut) : content.slice(0, maxChars);
  return `${head}\n…`;
}
