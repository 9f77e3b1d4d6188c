import { describe, expect, it } from 'vitest';
import { utf8Evidence } from './utf8-evidence.js';

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  new Uint8Array(parts.flatMap((part) => (typeof part === 'string' ? [...new TextEncoder().encode(part)] : part)));

describe('utf8Evidence', () => {
  it('counts well-formed 2-, 3- and 4-byte sequences, not ASCII', () => {
    expect(utf8Evidence(bytes('ascii only'))).toEqual({ multiByte: 0, invalid: 0, multiByteBytes: 0, invalidBytes: 0 });
    expect(utf8Evidence(bytes('naïve 日本 😀'))).toEqual({ multiByte: 4, invalid: 0, multiByteBytes: 2 + 3 + 3 + 4, invalidBytes: 0 });
  });

  it('counts ill-formed sequences as a replacing TextDecoder replaces them (maximal subparts)', () => {
    const cases = [
      bytes('caf', [0xe9]),
      bytes([0xe6, 0x97], 'x'), // truncated 3-byte sequence: one
      bytes([0xc0, 0xaf]), // overlong: two
      bytes([0xed, 0xa0, 0x80]), // surrogate: three
      bytes([0xf4, 0x90, 0x80, 0x80]), // past U+10FFFF: four
      bytes([0x80, 0xbf, 0xff, 0xfe]),
    ];
    for (const input of cases) {
      const replaced = [...new TextDecoder('utf-8').decode(input).matchAll(/\ufffd/g)].length;
      expect(utf8Evidence(input)).toMatchObject({ multiByte: 0, invalid: replaced, multiByteBytes: 0, invalidBytes: input.length - [...input].filter((b) => b < 0x80).length });
    }
    expect(utf8Evidence(bytes('日本', [0xe6, 0x97], '語'))).toEqual({ multiByte: 3, invalid: 1, multiByteBytes: 9, invalidBytes: 2 });
  });
});
