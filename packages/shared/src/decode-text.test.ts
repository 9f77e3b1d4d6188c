import { describe, expect, it } from 'vitest';
import { decodeText } from './decode-text.js';

const enc = (s: string) => new TextEncoder().encode(s);

describe('decodeText', () => {
  it('strips a UTF-8 BOM and turns CRLF and lone CR into LF', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...enc('a\r\nb\rc\n')]);
    expect(decodeText(bytes)).toEqual({ kind: 'text', encoding: 'utf-8', text: 'a\nb\nc\n' });
  });

  it('decodes UTF-16LE and UTF-16BE by their BOM', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('x = 1\r\ny', 'utf16le')]);
    expect(decodeText(le)).toEqual({ kind: 'text', encoding: 'utf-16le', text: 'x = 1\ny' });
    const be = Buffer.from(Buffer.from('hé', 'utf16le').swap16());
    expect(decodeText(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).toEqual({ kind: 'text', encoding: 'utf-16be', text: 'hé' });
  });

  it('keeps every line of invalid UTF-8 (Windows-1252 fallback), so line numbers do not shift', () => {
    const bytes = new Uint8Array([...enc('line1\n'), 0xff, 0xfe, 0x41, ...enc('\nline3\n')]);
    const out = decodeText(bytes);
    expect(out).toEqual({ kind: 'text', encoding: 'windows-1252', text: 'line1\n\u00ff\u00feA\nline3\n' });
  });

  it('decodes Windows-1252 quotes, dashes and the euro sign, not C1 controls (a trial got \\x93quoted\\x94)', () => {
    const bytes = new Uint8Array([...enc('He said '), 0x93, ...enc('quoted'), 0x94, ...enc(' and paid '), 0x80, ...enc('5 '), 0x97, ...enc(' done, na'), 0xef, ...enc('ve\r\nx'), 0x81, ...enc('\n')]);
    expect(decodeText(bytes)).toEqual({ kind: 'text', encoding: 'windows-1252', text: 'He said \u201cquoted\u201d and paid \u20ac5 \u2014 done, na\u00efve\nx\ufffd\n' });
  });

  it('decodes mostly-UTF-8 bytes as UTF-8, one U+FFFD for the one invalid byte (a trial got æ—¥æœ¬èªž)', () => {
    const bytes = new Uint8Array([...enc('# 日本語 comment and naïve text\r\nx = '), 0xff, ...enc(' # 本\n')]);
    const out = decodeText(bytes);
    expect(out).toEqual({ kind: 'text', encoding: 'utf-8', text: '# 日本語 comment and naïve text\nx = \ufffd # 本\n' });
    expect(out.kind === 'text' ? [...out.text.matchAll(/\ufffd/g)].length : -1).toBe(1);
  });

  it('weighs the bytes: a stray byte beside a single é or 東 keeps UTF-8 (a second trial got cafÃ©)', () => {
    expect(decodeText(new Uint8Array([...enc('The café and zebracafe '), 0xff, ...enc(' end.\n')]))).toEqual({ kind: 'text', encoding: 'utf-8', text: 'The café and zebracafe \ufffd end.\n' });
    expect(decodeText(new Uint8Array([...enc('東'), 0xff, 0xfe, 0xfd, ...enc('京')]))).toEqual({ kind: 'text', encoding: 'utf-8', text: '東\ufffd\ufffd\ufffd京' });
  });

  it('keeps Windows-1252 for single-byte text with no valid multi-byte sequence, or as many bytes ill-formed as well-formed', () => {
    expect(decodeText(new Uint8Array([...enc('caf'), 0xe9]))).toEqual({ kind: 'text', encoding: 'windows-1252', text: 'café' });
    expect(decodeText(new Uint8Array([...enc('d'), 0xe9, 0xe8, 0xe0, ...enc(' '), 0xc3, 0xa9]))).toEqual({ kind: 'text', encoding: 'windows-1252', text: 'déèà Ã©' });
  });

  it('calls a file with a NUL byte binary', () => {
    expect(decodeText(new Uint8Array([0x41, 0x00, 0x42]))).toEqual({ kind: 'binary' });
  });
});
