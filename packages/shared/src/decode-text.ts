import iconv from 'iconv-lite';
import { utf8Evidence } from './utf8-evidence.js';

/** Result of {@link decodeText}. */
export type DecodedText =
  | { kind: 'text'; text: string; encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252' }
  | { kind: 'binary' };

const SNIFF_BYTES = 8192;

function hasNulByte(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Converts CRLF and lone CR to LF, so line numbers match what editors show. */
export function normaliseLineEnds(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/**
 * Decodes file bytes into normalised text: the BOM removed, UTF-16 (by BOM) decoded, CRLF / CR
 * turned into LF. Bytes that are not all valid UTF-8 are judged by {@link utf8Evidence}:
 * - mostly UTF-8 (at least one well-formed multi-byte sequence, and fewer bytes in ill-formed sequences
 *   than in well-formed multi-byte ones: a stray byte beside one `é` (2 bytes) or `東` (3) stays UTF-8): decoded as UTF-8 with each ill-formed sequence replaced by one
 *   U+FFFD (WHATWG Encoding Standard, as `TextDecoder` does), so one stray byte in a UTF-8 file no
 *   longer turns `日本語` into `æ—¥æœ¬èªž`. Chance well-formed pairs in single-byte text (an accented
 *   capital followed by a symbol byte, `Ã©`) are rare, while each accented letter there is ill-formed,
 *   so such text does not pass.
 * - otherwise (no well-formed multi-byte sequence, or as many bytes ill-formed): Windows-1252, the usual
 *   single-byte encoding of such files (Latin-1 with typographic quotes, dashes and the euro sign in
 *   0x80-0x9F), through iconv-lite: Node 20's TextDecoder decodes `windows-1252` as ISO-8859-1, giving
 *   C1 control characters for `\x93quoted\x94`. One character per byte (the five bytes Windows-1252
 *   leaves undefined become U+FFFD).
 * Neither way consumes a line end (an ill-formed sequence ends at any ASCII byte), so no line shifts.
 * A NUL byte in the first 8 KiB without a UTF-16 BOM means binary.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { kind: 'text', encoding: 'utf-16le', text: normaliseLineEnds(new TextDecoder('utf-16le').decode(bytes.subarray(2))) };
  }
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { kind: 'text', encoding: 'utf-16be', text: normaliseLineEnds(new TextDecoder('utf-16be').decode(bytes.subarray(2))) };
  }
  const hasBom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = hasBom ? bytes.subarray(3) : bytes;
  if (hasNulByte(body)) return { kind: 'binary' };
  try {
    return { kind: 'text', encoding: 'utf-8', text: normaliseLineEnds(new TextDecoder('utf-8', { fatal: true }).decode(body)) };
  } catch {
    // Not all valid UTF-8: mostly UTF-8 keeps UTF-8 with U+FFFD for the bad bytes, else Windows-1252.
    const { multiByte, multiByteBytes, invalidBytes } = utf8Evidence(body);
    if (multiByte > 0 && invalidBytes < multiByteBytes) {
      return { kind: 'text', encoding: 'utf-8', text: normaliseLineEnds(new TextDecoder('utf-8').decode(body)) };
    }
    return { kind: 'text', encoding: 'windows-1252', text: normaliseLineEnds(iconv.decode(Buffer.from(body.buffer, body.byteOffset, body.byteLength), 'windows-1252')) };
  }
}
