/** What {@link utf8Evidence} counted in some bytes. */
export interface Utf8Evidence {
  /** Well-formed sequences of 2 to 4 bytes (non-ASCII characters encoded as UTF-8). */
  multiByte: number;
  /** Ill-formed sequences: each would become one U+FFFD in a replacing UTF-8 decoder. */
  invalid: number;
  /** Bytes in the well-formed multi-byte sequences. */
  multiByteBytes: number;
  /** Bytes in the ill-formed sequences. */
  invalidBytes: number;
}

/**
 * Counts the well-formed multi-byte UTF-8 sequences of `bytes` and its ill-formed ones, the ones
 * counted as a replacing decoder (`new TextDecoder('utf-8')`) replaces them: well-formedness by
 * Unicode 15, Table 3-7 (no overlongs, no surrogates, nothing past U+10FFFF); one U+FFFD per maximal
 * subpart of an ill-formed sequence (Unicode 15, section 3.9, "U+FFFD Substitution of Maximal
 * Subparts", the practice the WHATWG Encoding Standard's UTF-8 decoder follows). ASCII bytes count
 * in neither. One pass, no allocation.
 */
export function utf8Evidence(bytes: Uint8Array): Utf8Evidence {
  let multiByte = 0;
  let invalid = 0;
  let multiByteBytes = 0;
  let invalidBytes = 0;
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const form = LEADS.find((candidate) => lead >= candidate.from && lead <= candidate.to);
    if (form === undefined) {
      invalid++;
      invalidBytes++;
      i++;
      continue;
    }
    let taken = 1;
    let [lo, hi] = form.second;
    while (taken <= form.trail) {
      const next = bytes[i + taken];
      if (next === undefined || next < lo || next > hi) break;
      taken++;
      [lo, hi] = CONTINUATION;
    }
    if (taken > form.trail) {
      multiByte++;
      multiByteBytes += taken;
    } else {
      invalid++;
      invalidBytes += taken;
    }
    i += taken;
  }
  return { multiByte, invalid, multiByteBytes, invalidBytes };
}

/** The range every continuation byte after the second byte of a sequence must fall in. */
const CONTINUATION: readonly [number, number] = [0x80, 0xbf];

/** Lead bytes of well-formed sequences (Unicode Table 3-7): how many bytes follow, and the second byte's range. */
const LEADS: readonly { from: number; to: number; trail: number; second: readonly [number, number] }[] = [
  { from: 0xc2, to: 0xdf, trail: 1, second: CONTINUATION },
  { from: 0xe0, to: 0xe0, trail: 2, second: [0xa0, 0xbf] },
  { from: 0xe1, to: 0xec, trail: 2, second: CONTINUATION },
  { from: 0xed, to: 0xed, trail: 2, second: [0x80, 0x9f] },
  { from: 0xee, to: 0xef, trail: 2, second: CONTINUATION },
  { from: 0xf0, to: 0xf0, trail: 3, second: [0x90, 0xbf] },
  { from: 0xf1, to: 0xf3, trail: 3, second: CONTINUATION },
  { from: 0xf4, to: 0xf4, trail: 3, second: [0x80, 0x8f] },
];
