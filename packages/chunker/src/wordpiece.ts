import { ErrorCode, MonoragError } from '@monorag/shared';
import type { TokenCounter } from './chunker.js';

/** Tokens a BERT model adds to every input: `[CLS]` and `[SEP]`. Reserve them in the chunk budget. */
export const BERT_SPECIAL_TOKENS = 2;
/** Longer words (in code points, after normalisation) are one `[UNK]` (BERT's `max_input_chars_per_word`). */
export const MAX_INPUT_CHARS_PER_WORD = 100;
/** Prefix of word pieces that continue a word. */
const CONTINUATION = '##';
/** Special tokens matched literally in raw text before normalisation (Hugging Face `added_tokens`, `normalized: false`). */
const SPECIAL_LITERALS = /\[(?:UNK|CLS|SEP|PAD|MASK)\]/g;
/** Words kept in the memo before it is cleared, bounding memory on huge corpora. */
const MEMO_LIMIT = 200_000;

// Character classes of BERT's basic tokenizer (tokenization.py: _is_control, _is_whitespace, _is_punctuation,
// _is_chinese_char), as the Hugging Face `tokenizers` BertNormalizer / BertPreTokenizer implement them.
/** Removed: NUL, U+FFFD and every "other" (C*) character except tab, LF and CR. */
const CONTROL = /[\0\uFFFD]|(?![\t\n\r])\p{C}/gu;
/** Becomes a word boundary: Unicode White_Space (tab, LF, CR included). */
const WHITESPACE = /\p{White_Space}/gu;
/** CJK Unified Ideographs and their extensions and compatibility blocks: one word each. */
const CJK = /[\u{4E00}-\u{9FFF}\u{3400}-\u{4DBF}\u{20000}-\u{2A6DF}\u{2A700}-\u{2B73F}\u{2B740}-\u{2B81F}\u{2B820}-\u{2CEAF}\u{F900}-\u{FAFF}\u{2F800}-\u{2FA1F}]/gu;
/** Nonspacing marks, dropped after NFD (accent stripping). */
const NONSPACING_MARK = /\p{Mn}/gu;
/** A punctuation character: every non-alphanumeric printable ASCII character (33-47, 58-64, 91-96, 123-126), or Unicode P*. */
const PUNCTUATION = /[!-/:-@[-`{-~]|\p{P}/u;
/** Splits a normalised line into words and single punctuation characters. */
const PIECES = /[!-/:-@[-`{-~]|\p{P}|[^\s!-/:-@[-`{-~\p{P}]+/gu;

/**
 * Normalises non-ASCII text as BERT's uncased basic tokenizer does: removes control characters,
 * turns whitespace into spaces, puts spaces around CJK ideographs, strips accents (NFD, then drop Mn)
 * and lower-cases each character (no final-sigma rule, as the Rust `tokenizers` crate does).
 */
function normalise(text: string): string {
  const cleaned = text.replace(CONTROL, '').replace(WHITESPACE, ' ').replace(CJK, ' $& ');
  const stripped = cleaned.normalize('NFD').replace(NONSPACING_MARK, '');
  // JavaScript's String#toLowerCase applies the context-sensitive final sigma (Σ -> ς); BERT maps per character.
  return stripped.includes('\u03A3')
    ? Array.from(stripped, (char) => char.toLowerCase()).join('')
    : stripped.toLowerCase();
}

/**
 * A `TokenCounter` giving the exact number of word pieces BERT's uncased WordPiece tokenizer makes of
 * a text, without the 2 special tokens (`[CLS]`, `[SEP]`; see `BERT_SPECIAL_TOKENS`), so counts add up
 * over lines. Source: Devlin et al. 2019, "BERT: Pre-training of Deep Bidirectional Transformers for
 * Language Understanding", and its reference implementation `tokenization.py` in google-research/bert
 * (BasicTokenizer + WordpieceTokenizer), as run by Hugging Face `tokenizers` for all-MiniLM-L6-v2:
 * 1. special-token literals (`[UNK]`, `[CLS]`, `[SEP]`, `[PAD]`, `[MASK]`) in the raw text are 1 each;
 * 2. basic tokenizer: drop control characters, whitespace separates words, each CJK ideograph is a word,
 *    strip accents (NFD, drop Mn), lower-case, and every punctuation character (ASCII 33-47, 58-64,
 *    91-96, 123-126, and Unicode P*) is a word of its own;
 * 3. WordPiece: each word is split greedily, longest vocabulary match first, continuation pieces carry
 *    `##`; a word with an unmatched remainder, or longer than 100 code points, is one `[UNK]`.
 * Printable ASCII lines take a single-pass fast path; word counts are memoised (lines are not: the chunker
 * counts each line once, and memoising them measured no faster).
 * @param vocab the vocabulary in id order (vocab.txt, one token per line; 30,522 for all-MiniLM-L6-v2)
 * @throws MonoragError INVALID_ARGUMENT when `vocab` is empty
 */
export function createWordPieceCounter(vocab: readonly string[]): TokenCounter {
  if (vocab.length === 0) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, 'createWordPieceCounter: vocab is empty; pass the model\'s vocab.txt lines (GET /vocab).');
  }
  const tokens = new Set(vocab);
  let longest = 1;
  for (const token of vocab) {
    const length = token.startsWith(CONTINUATION) ? token.length - CONTINUATION.length : token.length;
    if (length > longest) longest = length;
  }
  const words = new Map<string, number>();

  /** Word pieces of one normalised word (no whitespace, no punctuation). */
  const countWord = (word: string): number => {
    const known = words.get(word);
    if (known !== undefined) return known;
    // UTF-16 offsets of each code point, so pieces never split a surrogate pair.
    let bounds: number[] | null = null;
    for (let i = 0; i < word.length; i++) {
      if (word.charCodeAt(i) >= 0xd800 && word.charCodeAt(i) <= 0xdfff) {
        bounds = [];
        for (let at = 0; at < word.length; at += (word.codePointAt(at) ?? 0) > 0xffff ? 2 : 1) bounds.push(at);
        bounds.push(word.length);
        break;
      }
    }
    const chars = bounds ? bounds.length - 1 : word.length;
    const offset = (index: number): number => (bounds ? (bounds[index] as number) : index);
    let pieces = 0;
    if (chars > MAX_INPUT_CHARS_PER_WORD) {
      pieces = 1;
    } else {
      let start = 0;
      while (start < chars) {
        let end = Math.min(chars, start + longest);
        const prefix = start > 0 ? CONTINUATION : '';
        while (end > start && !tokens.has(prefix + word.slice(offset(start), offset(end)))) end--;
        if (end === start) {
          pieces = 1; // no piece matches here: the whole word is one [UNK]
          break;
        }
        pieces++;
        start = end;
      }
    }
    if (words.size >= MEMO_LIMIT) words.clear();
    words.set(word, pieces);
    return pieces;
  };

  /**
   * Word pieces of printable ASCII text (plus tab, LF, CR): alphanumeric runs are words, every other
   * printable character is one piece, space, tab, LF and CR separate. -1 at the first other character
   * (non-ASCII or control), which needs the normalising path.
   */
  const countAscii = (text: string): number => {
    let count = 0;
    let start = -1;
    let upper = false;
    for (let i = 0; i <= text.length; i++) {
      const code = i < text.length ? text.charCodeAt(i) : 32;
      if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) {
        if (start < 0) start = i;
      } else if (code >= 65 && code <= 90) {
        if (start < 0) start = i;
        upper = true;
      } else {
        if (code > 126 || (code < 32 && code !== 9 && code !== 10 && code !== 13)) return -1;
        if (start >= 0) {
          const word = text.slice(start, i);
          count += countWord(upper ? word.toLowerCase() : word);
          start = -1;
          upper = false;
        }
        if (code !== 32 && code > 13) count++;
      }
    }
    return count;
  };

  const countNormalised = (text: string): number => {
    let count = 0;
    for (const match of normalise(text).matchAll(PIECES)) {
      const piece = match[0];
      count += PUNCTUATION.test(piece) ? 1 : countWord(piece);
    }
    return count;
  };

  const countSegment = (text: string): number => {
    const ascii = countAscii(text);
    return ascii >= 0 ? ascii : countNormalised(text);
  };

  return (text: string): number => {
    let count = 0;
    if (text.includes('[') && SPECIAL_LITERALS.test(text)) {
      SPECIAL_LITERALS.lastIndex = 0;
      const segments = text.split(SPECIAL_LITERALS);
      count = segments.length - 1;
      for (const segment of segments) count += countSegment(segment);
    } else {
      count = countSegment(text);
    }
    SPECIAL_LITERALS.lastIndex = 0;
    return count;
  };
}
