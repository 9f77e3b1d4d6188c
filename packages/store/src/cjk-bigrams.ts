/**
 * One CJK character as the term analysis treats it: a letter or number of the Han, Hiragana,
 * Katakana or Hangul script, or the prolonged sound mark `ー` (full and half width, Script=Common),
 * the scripts Lucene's `CJKBigramFilter` bigrams. Symbols of those scripts (Kangxi radicals) are left
 * out: SQLite's `unicode61` tokenizer splits on them, so a term holding one would not round-trip.
 */
const CJK_CHAR = String.raw`(?:(?=[\p{L}\p{N}])[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\u30FC\uFF70])`;

/** A run of {@link CJK_CHAR}, captured so that `String.split` keeps it. */
const CJK_RUN = new RegExp(`(${CJK_CHAR}+)`, 'u');

/** Any {@link CJK_CHAR}: a cheap test before splitting. */
const HAS_CJK = new RegExp(CJK_CHAR, 'u');

/**
 * `text` cut around its runs of CJK characters: even indexes hold the text between runs (possibly
 * empty), odd indexes the runs, in text order. `'see 连接池 now'` gives `['see ', '连接池', ' now']`;
 * text without CJK gives `[text]`.
 */
export function splitCjkRuns(text: string): string[] {
  return HAS_CJK.test(text) ? text.split(CJK_RUN) : [text];
}

/**
 * The terms of one run of CJK characters (as {@link splitCjkRuns} returns it): overlapping character
 * bigrams, or the character itself when the run has one. `'连接池'` gives `['连接', '接池']`, `'池'`
 * gives `['池']`. Characters are code points, so a supplementary ideograph counts as one.
 *
 * Rule from Lucene's `CJKAnalyzer` (`org.apache.lucene.analysis.cjk.CJKBigramFilter`: bigrams of
 * adjacent Han, Hiragana, Katakana and Hangul characters, a lone one emitted as a unigram): Chinese and
 * Japanese put no spaces between words, so bigrams let a word inside a sentence match without a
 * dictionary. Its width folding (`CJKWidthFilter`) is not done.
 */
export function cjkBigrams(run: string): string[] {
  const chars = Array.from(run);
  if (chars.length === 1) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(`${chars[i]}${chars[i + 1]}`);
  return out;
}
