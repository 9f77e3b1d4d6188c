import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundledVocabulary, referenceCounts } from './bundled-tokenizer.js';
import { BERT_SPECIAL_TOKENS, createWordPieceCounter } from './wordpiece.js';

const TINY_VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', 'pars', '##e', '##r', 'parse', '##parse', 'http', '##s', 'header', '(', ')', '.', 'cafe', '中', 'σ'];

describe('createWordPieceCounter (tiny vocabulary)', () => {
  const count = createWordPieceCounter(TINY_VOCAB);

  it('splits words greedily, longest match first, with ## continuations', () => {
    expect(count('parse')).toBe(1); // the whole word, not pars + ##e
    expect(count('parser')).toBe(2); // parse + ##r
    expect(count('parses')).toBe(2); // parse + ##s
    expect(count('httpss')).toBe(3); // http + ##s + ##s
  });

  it('makes a word with an unmatched remainder, or over 100 characters, one [UNK]', () => {
    expect(count('parsex')).toBe(1);
    expect(count('zzz')).toBe(1);
    expect(count('parse'.repeat(20))).toBe(20);
    expect(count(`${'parse'.repeat(20)}r`)).toBe(1); // 101 characters
  });

  it('lower-cases, strips accents, splits on whitespace and every punctuation character, and isolates CJK', () => {
    expect(count('PARSE(Header)')).toBe(4);
    expect(count('Café')).toBe(1); // café -> cafe
    expect(count('parse\theader\r\nhttp')).toBe(3);
    expect(count('中中')).toBe(2);
    expect(count('parse中header')).toBe(3);
    expect(count('¿parse…')).toBe(3); // Unicode punctuation (Po) is a word of its own
    expect(count('ΣΣ')).toBe(1); // per-character lower case: σσ, no final sigma; σ + ##σ is unknown, so one [UNK]
  });

  it('drops control characters, joining their neighbours, and counts special-token literals as 1', () => {
    expect(count('pars\u0001e')).toBe(1);
    expect(count('pars\u200be')).toBe(1); // zero-width space is Cf, removed
    expect(count('parse\u00a0header')).toBe(2); // no-break space separates
    expect(count('[CLS] parse [MASK]')).toBe(3);
    expect(count('[mask]')).toBe(3); // only the exact literal is special
  });

  it('adds up over lines and counts nothing for blank text', () => {
    expect(count('')).toBe(0);
    expect(count(' \n\t')).toBe(0);
    expect(count('parse(header)\nhttps.')).toBe(count('parse(header)') + count('https.'));
  });

  it('refuses an empty vocabulary', () => {
    expect(() => createWordPieceCounter([])).toThrow(/vocab is empty/);
  });
});

/** Hand-written lines for the cases real code rarely has: accents, scripts, emoji, controls, very long words. */
const SPECIAL_LINES = [
  'Ünïcödé façade naïve résumé coöperate Ångström',
  'Straße groß İstanbul ΣΊΣΥΦΟΣ Όσος σοφός',
  'const greeting = "こんにちは世界"; // Japanese: kana and kanji',
  '中文分词测试：每个汉字都是一个词。',
  '한국어 텍스트도 있습니다',
  'مرحبا بالعالم - Arabic, עברית',
  'emoji 😀🎉👍🏽 and flags 🇩🇪 and family 👨‍👩‍👧',
  'zero\u200bwidth\u200djoiner and soft\u00adhyphen and bom\ufeffhere',
  'no-break\u00a0space, em\u2003space, ideographic\u3000space, line\u2028separator',
  'tab\tseparated\tvalues\u000bvertical\u000cform\u007fdel\u0001start',
  'price: 12€, £5, ¥100, ₹42, 3½ cups, x² + y³ ≤ ∑ ∞ → ⇒',
  '«guillemets» „quotes“ ‘single’ — dash – en dash … ellipsis · middot',
  'fullwidth！（括弧）「かぎ」【角】',
  'combining: e\u0301 a\u0308 n\u0303 o\u0302, precomposed: é ä ñ ô',
  'thisIsAVeryLongIdentifierNameThatKeepsGoingAndGoingWithoutAnyBreaksAtAllUntilItIsOverOneHundredCharactersLong',
  'ThisIsALongIdentifierThatIsJustUnderTheLimitOfOneHundredCharactersSoItMustBeSplitIntoPieces_ok',
  'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  'éééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé',
  '0x7fffffff 1234567890123 3.14159e-10 1_000_000 0b1010 0o777 #ff00aa',
  'https://example.com/path?query=value&other=1#fragment user@example.org',
  '[CLS] [SEP] [PAD] [MASK] [UNK] [cls] [Mask] a[SEP]b',
  '\u0000nul and \ufffdreplacement',
  'Ⅻ Roman numerals, ① circled, ﬁ ligature, Ｆｕｌｌｗｉｄｔｈ letters',
  'Ελληνικά, Русский текст, Ελληνική γλώσσα, Українська',
  'ไทย ภาษา, हिन्दी भाषा, ગુજરાતી',
  '𝒳𝒴𝒵 math letters, 𠀀𠀁 CJK extension B, 🀄 mahjong',
  '',
  '    ',
];

/** Every `step`-th non-blank line of `text`, at most `limit`. */
function sample(text: string, step: number, limit: number): string[] {
  return text.split('\n').filter((line) => line.trim() !== '').filter((_, i) => i % step === 0).slice(0, limit);
}

const vocab = bundledVocabulary();

describe.skipIf(vocab === null)('createWordPieceCounter against the real all-MiniLM-L6-v2 tokenizer (transformers, offline)', () => {
  it('gives the same counts as the Python tokenizer on real code, prose and unicode, line by line and whole', () => {
    const count = createWordPieceCounter(vocab as string[]);
    const lines = [...SPECIAL_LINES];
    const fixtures = new URL('../test/fixtures/', import.meta.url);
    for (const name of readdirSync(fixtures).sort()) lines.push(...sample(readFileSync(new URL(name, fixtures), 'utf8'), 3, 12));
    for (const name of ['wordpiece.ts', 'syntax-pieces.ts', 'estimate-tokens.ts', 'markdown-pieces.ts']) {
      lines.push(...sample(readFileSync(new URL(name, import.meta.url), 'utf8'), 4, 15));
    }
    lines.push(...sample(readFileSync(new URL('../README.md', import.meta.url), 'utf8'), 2, 25));
    expect(lines.length).toBeGreaterThan(300);
    const wholeTexts = [lines.slice(0, 40).join('\n'), lines.slice(100, 220).join('\n')];
    const expected = referenceCounts([...lines, ...wholeTexts]);
    const actual = [...lines, ...wholeTexts].map((text) => count(text) + BERT_SPECIAL_TOKENS);
    const mismatches = lines.flatMap((line, i) => (actual[i] === expected[i] ? [] : [`${actual[i]} != ${expected[i]}: ${JSON.stringify(line)}`]));
    expect(mismatches).toEqual([]);
    expect(actual).toEqual(expected);
    expect(Math.max(...expected)).toBeGreaterThan(600); // the whole texts are long: no truncation in the reference
  });
});
