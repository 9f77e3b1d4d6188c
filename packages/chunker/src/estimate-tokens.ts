const WHITESPACE = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const SYMBOL = 4;
const OTHER = 5;

function classOf(code: number): number {
  if (code === 32 || code === 9 || code === 10 || code === 13 || code === 11 || code === 12) return WHITESPACE;
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 48 && code <= 57) return DIGIT;
  if (code < 128) return SYMBOL;
  return OTHER;
}

/**
 * Conservative estimate of how many BERT word-piece tokens `text` becomes, without special tokens.
 * Rules (per run of characters):
 * - letters: one run per camel-case hump (`parseHTTPHeaders` is `parse` + `HTTPHeaders`),
 *   each counting ceil(length / 4);
 * - digits: ceil(length / 3) per run;
 * - ASCII punctuation and symbols (including `_`): 1 each;
 * - any non-ASCII UTF-16 code unit: 1 each;
 * - whitespace: 0.
 * Additive over lines (`estimateTokens(a + '\n' + b) === estimateTokens(a) + estimateTokens(b)`),
 * and meant to over- rather than under-estimate the word pieces of real code.
 * @returns a token count (>= 0)
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  let runClass = WHITESPACE;
  let runLength = 0;
  const flush = (): void => {
    if (runLength === 0) return;
    tokens += runClass === DIGIT ? Math.ceil(runLength / 3) : Math.ceil(runLength / 4);
    runLength = 0;
  };
  for (let i = 0; i < text.length; i++) {
    const cls = classOf(text.charCodeAt(i));
    if (cls === LOWER || cls === UPPER) {
      const continues = runLength > 0 && runClass !== DIGIT && !(runClass === LOWER && cls === UPPER);
      if (!continues) flush();
      runClass = cls;
      runLength++;
    } else if (cls === DIGIT) {
      if (runClass !== DIGIT) flush();
      runClass = DIGIT;
      runLength++;
    } else {
      flush();
      runClass = WHITESPACE;
      if (cls === SYMBOL || cls === OTHER) tokens++;
    }
  }
  flush();
  return tokens;
}
