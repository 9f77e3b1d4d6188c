/**
 * Lower-cased word tokens of `text`: runs of letters and digits, with identifiers also split on
 * camelCase, PascalCase and snake_case (`parseHTTPHeaders` -> `parse`, `http`, `headers`,
 * `parsehttpheaders`). A compound identifier is kept whole as well as split.
 */
export function tokenizeWords(text: string): string[] {
  const out: string[] = [];
  for (const word of text.match(/[\p{L}\p{N}]+/gu) ?? []) {
    const parts = word
      .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
      .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
      .split(' ');
    for (const part of parts) out.push(part.toLowerCase());
    if (parts.length > 1) out.push(word.toLowerCase());
  }
  return out;
}
