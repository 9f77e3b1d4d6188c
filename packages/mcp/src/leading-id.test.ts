import { describe, expect, it } from 'vitest';
import { leadingId } from './leading-id.js';

describe('leadingId', () => {
  it('finds an integer or string "id" that is the first member, or the second after "jsonrpc": "2.0"', () => {
    expect(leadingId('{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"x":"yyyy')).toBe(14);
    expect(leadingId('\uFEFF { "id" : -3 , "jsonrpc": "2.0"')).toBe(-3);
    expect(leadingId('{"jsonrpc": "2.0",\n  "id": 0}')).toBe(0);
    expect(leadingId('{"id":"req-\\"7\\"\\u00e9","method":"x"')).toBe('req-"7"é');
  });

  it('is null when the id is elsewhere, not a string or an integer, cut short, or past the scanned beginning', () => {
    expect(leadingId('{"jsonrpc":"2.0","method":"ping","id":14}')).toBeNull();
    expect(leadingId('{"params":{"id":14},"id":15')).toBeNull();
    expect(leadingId('{"jsonrpc":"1.0","id":14,')).toBeNull();
    expect(leadingId('[{"jsonrpc":"2.0","id":14,')).toBeNull();
    expect(leadingId('{"id":1.5,')).toBeNull();
    expect(leadingId('{"id":1e3,')).toBeNull();
    expect(leadingId('{"id":01,')).toBeNull();
    expect(leadingId('{"id":12')).toBeNull();
    expect(leadingId('{"id":"abc')).toBeNull();
    expect(leadingId('{"id":"a\\x",')).toBeNull();
    expect(leadingId('{"id":"a\tb",')).toBeNull();
    expect(leadingId('{"id":null,')).toBeNull();
    expect(leadingId('{"id":123456789012345678901,')).toBeNull();
    expect(leadingId(`{"id":"${'a'.repeat(70_000)}",`)).toBeNull();
  });
});
