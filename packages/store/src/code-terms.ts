import { stemmer } from 'stemmer';
import { cjkBigrams, splitCjkRuns } from './cjk-bigrams.js';

/**
 * Code-aware term analysis for BM25: the document side of lexical search. The SQLite store feeds
 * these terms to FTS5; the Qdrant sparse encoder hashes the same terms, so both stores rank alike.
 *
 * Rules (in order):
 * 1. The text is NFC-normalised. Tokens are kebab words (`content-type`: letter-led words joined by
 *    single `-`), identifiers (`[A-Za-z_$][A-Za-z0-9_$]*`, generalised to Unicode letters, marks and
 *    digits, so `café` and `überCount` are identifiers too) and numbers (a digit followed by letters,
 *    digits or `_`: `404`, `0x1f`, `1_000`). Everything else (punctuation, whitespace) separates.
 * 2. An identifier emits its whole self lowercased (`parseHTTPHeader` -> `parsehttpheader`), then its
 *    parts: split on `_` and `$`, then on camelCase boundaries including acronyms and digit runs
 *    (upper, lower and digit classes are Unicode's Lu, Ll and Nd; other letters form runs of
 *    their own) (`parseHTTPHeader` -> `parse http header`, `base64Encode` -> `base 64 encode`,
 *    `MAX_RETRY_COUNT` -> `max retry count`). Parts are emitted only when the identifier has more
 *    than one part or its single part differs from the whole (`$scope` -> `$scope scope`), so a plain
 *    word (`parse`) counts once.
 * 3. A kebab word emits each of its words analysed as identifiers, then the joined whole
 *    (`content-type` -> `content type content-type`). So does `a-b` written without spaces; accepted.
 * 4. A number emits itself lowercased, unsplit. A dotted version or decimal (`2.0.0`, `v10.4.1`, `3.14`:
 *    digit runs joined by single dots, optionally after a `v`) emits its numbers, then each prefix of two
 *    or more of them joined by `_` (`2.0.0` -> `2_0 2_0_0`), so `2.0.0` and `2.0` both find a `## 2.0.0`
 *    heading though single digits are dropped (rule 5); after a `v` also `v` and the first number (`v10`),
 *    as the identifier `v10` gives.
 * 5. Everything is lowercased. Terms shorter than {@link MIN_TERM_LENGTH} characters (single letters
 *    and digits: loop variables, `v` of `v2`) and longer than {@link MAX_TERM_LENGTH} (base64 blobs,
 *    hashes) are dropped.
 * 6. Duplicates are kept, in text order: term frequency is what BM25 counts.
 * 7. Words are stemmed (Porter, "An algorithm for suffix stripping", 1980, via the `stemmer` package):
 *    plain words and the parts of identifiers (`retrying` and `maxRetries` both give `retri`), so a
 *    question in prose meets the code's names in other forms. The whole of a compound identifier
 *    stays unstemmed (`parseheaders`), for exact identifier matches. Measured in eval/RESULTS.md.
 * 8. Runs of CJK characters (Han, Hiragana, Katakana, Hangul; see {@link cjkBigrams}) are cut out of
 *    the text first and give overlapping character bigrams, a lone character a unigram (kept despite
 *    rule 5), as Lucene's `CJKAnalyzer` does (`CJKBigramFilter`): `这是连接池` -> `这是 是连 连接 接池`,
 *    so `连接池` and `说明` find a sentence holding them. A CJK run also ends an identifier beside it
 *    (`getUser用户` -> `getuser get user 用户`), as Unicode word boundaries (UAX #29) do. Text without CJK
 *    characters is analysed exactly as before this rule.
 *
 * Output terms hold letters, digits and `_$-` only, so they can be joined with spaces and re-tokenised
 * by FTS5's `unicode61` tokenizer with `tokenchars '-_$'`.
 */
export function codeTerms(text: string): string[] {
  const out: string[] = [];
  const memo = new Map<string, readonly string[]>();
  if (!NON_ASCII.test(text)) {
    wordTerms(text, ASCII_TOKEN, memo, out);
    return out;
  }
  const pieces = splitCjkRuns(text.normalize('NFC'));
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] ?? '';
    if (i % 2 === 1) out.push(...cjkBigrams(piece));
    else wordTerms(piece, TOKEN, memo, out);
  }
  return out;
}

/** Appends to `out` the terms of `source`, text without CJK runs, by rules 1-7. */
function wordTerms(source: string, token: RegExp, memo: Map<string, readonly string[]>, out: string[]): void {
  token.lastIndex = 0;
  for (let match = token.exec(source); match !== null; match = token.exec(source)) {
    const [word] = match;
    if (word.includes('.')) {
      versionTerms(word, out);
    } else if (DIGIT_START.test(word)) {
      pushTerm(word.toLowerCase(), out);
    } else if (word.includes('-')) {
      for (const part of word.split('-')) out.push(...identifierTerms(part, memo));
      pushTerm(word.toLowerCase(), out);
    } else {
      out.push(...identifierTerms(word, memo));
    }
  }
}

/**
 * Version of the term analysis. Stores record it with their lexical index and rebuild that index
 * (SQLite FTS rows, Qdrant sparse vectors) from the stored chunks when it differs; bump it whenever
 * {@link codeTerms} or the text it is given (`lexicalBody`, comments counted twice) changes, even for
 * one language only: rows written before keep their old body until their file changes, so chunks of one
 * language would rank by two rules at once. `+jupyter`: the code cells of notebooks count their comments
 * twice too (`commentText`). `code-terms-3`: dotted versions and decimals (rule 4). `code-terms-4`: CJK
 * runs as character bigrams (rule 8).
 */
export const TERM_ANALYZER = 'code-terms-4+porter+comments+jupyter';

/** Shortest term kept, in characters. */
export const MIN_TERM_LENGTH = 2;

/** Longest term kept, in characters. */
export const MAX_TERM_LENGTH = 64;

/** Version | kebab word | identifier | number (rules 1 and 4). The kind is told apart by `.`, the first char and `-`. */
const TOKEN = /[vV]?\p{Nd}+(?:\.\p{Nd}+)+(?![\p{L}\p{N}_$])|\p{L}[\p{L}\p{M}\p{N}]*(?:-\p{L}[\p{L}\p{M}\p{N}]*)+|[\p{L}_$][\p{L}\p{M}\p{N}_$]*|\p{N}[\p{L}\p{M}\p{N}_]*/gu;

/** {@link TOKEN} for ASCII-only text, about twice as fast; gives the same tokens on such text. */
const ASCII_TOKEN = /[vV]?[0-9]+(?:\.[0-9]+)+(?![A-Za-z0-9_$])|[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z][A-Za-z0-9]*)+|[A-Za-z_$][A-Za-z0-9_$]*|[0-9][A-Za-z0-9_]*/g;

/** Any character beyond U+007F (the ASCII fast path does not apply). */
const NON_ASCII = /\P{ASCII}/u;
const DIGIT_START = /^\p{N}/u;

/**
 * Parts of one `_`/`$`-free segment: acronym runs (`HTTP` before `Header`), capitalised or lower
 * words (with their combining marks), digit runs, and runs of any other letters or numbers (scripts
 * without case other than CJK, which rule 8 has cut out already: Thai, Arabic, Hebrew).
 */
const PART = /\p{Lu}+(?!\p{Ll})|\p{Lu}?[\p{Ll}\p{M}]+|\p{Nd}+|[^\p{Lu}\p{Ll}\p{M}\p{Nd}]+/gu;

/** Terms of one identifier (rule 2), memoised per call: code repeats its identifiers a lot. */
function identifierTerms(identifier: string, memo: Map<string, readonly string[]>): readonly string[] {
  const known = memo.get(identifier);
  if (known !== undefined) return known;
  const terms: string[] = [];
  const whole = identifier.toLowerCase();
  if (PLAIN_WORD.test(identifier)) {
    pushTerm(stemmer(whole), terms);
  } else {
    pushTerm(whole, terms);
    const parts = identifier
      .split(/[_$]+/)
      .flatMap((segment) => segment.match(PART) ?? [])
      .map((part) => part.toLowerCase());
    if (parts.length !== 1 || parts[0] !== whole) for (const part of parts) pushTerm(stemmer(part), terms);
  }
  memo.set(identifier, terms);
  return terms;
}

/** An identifier that is its own single part (`parse`, `Parse`, `HTTP`): no splitting needed. */
const PLAIN_WORD = /^(?:[A-Z]?[a-z]+|[A-Z]+)$/;

/** Terms of a dotted version or decimal (rule 4): `v2.0.1` -> `v2`, `2_0`, `2_0_1` (single-digit numbers drop out by rule 5). */
function versionTerms(word: string, out: string[]): void {
  const numbers = word.replace(/^[vV]/, '').split('.');
  if (/^[vV]/.test(word)) pushTerm(`v${numbers[0]}`, out);
  for (const n of numbers) pushTerm(n, out);
  for (let k = 2; k <= numbers.length; k++) pushTerm(numbers.slice(0, k).join('_'), out);
}

function pushTerm(term: string, out: string[]): void {
  if (term.length >= MIN_TERM_LENGTH && term.length <= MAX_TERM_LENGTH) out.push(term);
}
