/**
 * Wraps untrusted text (retrieved code) in a Markdown code fence longer than any backtick run inside
 * it, so that text in a chunk cannot close the fence and pose as the server's own words.
 */
export function fenceCode(text: string, language = ''): string {
  let longest = 0;
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}
