/**
 * Longest test title the symbol table keeps as a definition name, in characters, the ellipsis included:
 * the chunker cuts longer titles (a title is also the chunk's symbol and sits in its embedded header,
 * within the model's token budget), so a lookup by a longer title must cut it the same way
 * ({@link testTitleName}).
 */
export const MAX_TEST_TITLE_CHARS = 120;

/** A cut title ends at a word boundary when one lies in its last this many characters, else mid-word. */
const WORD_BOUNDARY_REACH = 40;

/**
 * A test title as the symbol table stores it: runs of whitespace (a title written over several lines,
 * `\n` escapes) as one space, trimmed; a title over {@link MAX_TEST_TITLE_CHARS} characters is cut
 * after its last whole word that fits and ends with `…`, so that a shown name says it was cut. The
 * chunker names tests with it and lookups by a pasted title use it, so the two meet (two titles that
 * agree up to the cut are then one name).
 */
export function testTitleName(title: string): string {
  const name = title.replace(/\s+/g, ' ').trim();
  if (name.length <= MAX_TEST_TITLE_CHARS) return name;
  const room = name.slice(0, MAX_TEST_TITLE_CHARS - 1);
  const space = room.lastIndexOf(' ');
  const wholeWords = name[room.length] === ' ';
  const cut = wholeWords || space < room.length - WORD_BOUNDARY_REACH ? room : room.slice(0, space);
  return `${cut.trimEnd()}…`;
}
