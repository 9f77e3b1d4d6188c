import { describe, expect, it } from 'vitest';
import { checkMessage, checkParams, parseMessage } from './check-message.js';

/** The error reply of a refused line. */
function refusal(text: string) {
  const checked = parseMessage(text);
  if (checked.ok) throw new Error(`accepted: ${text}`);
  return checked.reply;
}

describe('parseMessage / checkMessage', () => {
  it.each([
    ['not json at all', -32700, null, /^Parse error: the message is not valid JSON \(Unexpected token .*\)\.$/],
    // Cut short, its leading id is read, so the client can fail that request (a trial: it waited for good).
    ['{"jsonrpc":"2.0","id":80,"method":"tools/li', -32700, 80, /^Parse error: the message is not valid JSON \(.*\)\.$/],
    ['{"method":"tools/list","id":81,', -32700, null, /^Parse error: the message is not valid JSON \(.*\)\.$/],
    ['\uFEFF{"jsonrpc":"2.0","id":82}', -32700, 82, /^Parse error: the message is not valid JSON \(.*\); it starts with a byte order mark \(U\+FEFF\), which JSON does not allow\.$/],
    ['{}', -32600, null, /^Invalid Request: the message has no "jsonrpc" member; it must be "jsonrpc": "2.0"\.$/],
    ['{"id":77,"method":"tools/list"}', -32600, 77, /^Invalid Request: the message has no "jsonrpc" member; it must be "jsonrpc": "2.0"\.$/],
    ['{"jsonrpc":"1.0","id":"a","method":"ping"}', -32600, 'a', /^Invalid Request: "jsonrpc" is "1.0"; it must be "jsonrpc": "2.0"\.$/],
    ['{"jsonrpc":"2.0","id":79,"method":"tools/call","params":"x"}', -32600, 79, /^Invalid Request: "params" must be an object, not a string \(in a request\)\.$/],
    ['{"jsonrpc":"2.0","id":null,"method":"ping"}', -32600, null, /^Invalid Request: "id" must be a string or an integer, not null \(in a request\)\.$/],
    ['{"jsonrpc":"2.0","id":5,"method":"ping","foo":1}', -32600, 5, /^Invalid Request: unknown member "foo" \(in a request\)\.$/],
    ['{"jsonrpc":"2.0","id":6}', -32600, 6, /^Invalid Request: the message has no "method" \(a request or notification\) nor "result" or "error" \(a response\)\.$/],
    ['[{"jsonrpc":"2.0","id":1,"method":"ping"}]', -32600, null, /^Invalid Request: batches \(a JSON array of messages\) are not supported since MCP 2025-06-18; send each message on its own\.$/],
    ['3', -32600, null, /^Invalid Request: a JSON-RPC message must be a JSON object, not a number\.$/],
  ])('refuses %s', (text, code, id, message) => {
    const reply = refusal(text);
    expect(reply).toMatchObject({ jsonrpc: '2.0', id, error: { code } });
    expect(reply.error.message).toMatch(message);
  });

  it('accepts requests, notifications and responses as they are', () => {
    for (const message of [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: {} } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'r', result: {} },
      { jsonrpc: '2.0', id: 2, error: { code: -1, message: 'no' } },
    ]) {
      expect(checkMessage(message)).toEqual({ ok: true, message });
    }
  });
});

describe('checkParams', () => {
  it('names "arguments" of tools/call when it is not an object, with the request id', () => {
    expect(checkParams({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_code', arguments: 'x' } })).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32602, message: 'Invalid params of tools/call: "arguments" must be an object, not a string.' },
    });
    expect(checkParams({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'search_code', arguments: null } })?.error.message).toBe(
      'Invalid params of tools/call: "arguments" must be an object, not null.',
    );
    expect(checkParams({ jsonrpc: '2.0', id: 5, method: 'tools/call' })?.error.message).toBe('Invalid params of tools/call: "params" is missing (it must be an object).');
  });

  it('passes valid params and methods it does not know', () => {
    expect(checkParams({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: { a: 1 } } })).toBeUndefined();
    expect(checkParams({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toBeUndefined();
    expect(checkParams({ jsonrpc: '2.0', id: 1, method: 'no/such', params: { x: 1 } })).toBeUndefined();
  });
});
