/**
 * Longest test title the symbol table keeps as a definition name, in characters: the chunker cuts longer
 * titles here (a title is also the chunk's symbol and sits in its embedded header, within the model's
 * token budget), so a lookup by a longer title must cut it the same way ({@link testTitleName}).
 */
export const MAX_TEST_TITLE_CHARS = 120;

/**
 * A test title as the symbol table stores it: runs of whitespace (a title written over several lines,
 * `\n` escapes) as one space, trimmed, and cut to {@link MAX_TEST_TITLE_CHARS} characters. The chunker
 * names tests with it and lookups by a pasted title use it, so the two meet.
 */
export function testTitleName(title: string): string {
  const name = title.replace(/\s+/g, ' ').trim();
  return name.length > MAX_TEST_TITLE_CHARS ? name.slice(0, MAX_TEST_TITLE_CHARS) : name;
}
