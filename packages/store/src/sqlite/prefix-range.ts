/** Half-open range of strings `[low, high)`: exactly the strings that start with a prefix. */
export interface PrefixRange {
  low: string;
  high: string;
}

/**
 * The range of strings starting with `prefix` under SQLite's BINARY collation (UTF-8 byte order, the
 * same as code point order), for `col >= low AND col < high`: an index range scan, and unlike `LIKE`
 * free of `%`/`_` escaping. `high` is `prefix` with its last code point incremented (`lib/` ->
 * `lib0`); a trailing U+10FFFF is dropped first and the one before it incremented.
 *
 * The prefix is a plain string prefix: `lib/` matches `lib/a.js` but not `libx/a.js`, while `lib`
 * matches `lib/a.js`, `lib.js` and `libx/a.js`. Callers wanting a directory pass the trailing `/`.
 * Returns undefined for the empty prefix (or one made only of U+10FFFF), which matches everything.
 */
export function prefixRange(prefix: string): PrefixRange | undefined {
  // One string per code point; joined, not spread into String.fromCodePoint, whose argument list
  // overflowed the call stack for a prefix of about 130,000 characters.
  const chars = Array.from(prefix);
  while (chars.length > 0) {
    const last = chars.pop()!.codePointAt(0) ?? 0;
    if (last === MAX_CODE_POINT) continue;
    const next = last + 1 === SURROGATE_START ? SURROGATE_END + 1 : last + 1;
    return { low: prefix, high: chars.join('') + String.fromCodePoint(next) };
  }
  return undefined;
}

const MAX_CODE_POINT = 0x10ffff;
const SURROGATE_START = 0xd800;
const SURROGATE_END = 0xdfff;
