import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { RejectedMessage } from './check-message.js';
import { createStdioTransport } from './stdio-transport.js';

/** A transport over in-memory stdin/stdout; collects what the server would get, what is written, and the refusals. */
async function stdio(maxLineBytes?: number) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const written: unknown[] = [];
  let buffered = '';
  stdout.on('data', (d: Buffer) => {
    buffered += d.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) written.push(JSON.parse(line));
  });
  const rejected: RejectedMessage[] = [];
  const transport = createStdioTransport({ stdin, stdout, maxLineBytes, onReject: (reply) => rejected.push(reply) });
  const received: JSONRPCMessage[] = [];
  transport.onmessage = (message) => received.push(message);
  await transport.start();
  return { stdin, transport, written, received, rejected };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('createStdioTransport', () => {
  it('answers each malformed line with a JSON-RPC error, passes valid ones on, and keeps reading', async () => {
    const { stdin, written, received, rejected } = await stdio();
    stdin.write('not json at all\n{}\n{"id":77,"method":"tools/list"}\n');
    stdin.write('{"jsonrpc":"2.0","id":80,"method":"tools/li\n{"jsonrpc":"2.0","id":79,"method":"tools/call","params":"x"}\n');
    stdin.write('\n[{"jsonrpc":"2.0","id":1,"method":"ping"}]\r\n{"jsonrpc":"2.0","id":2,');
    stdin.write('"method":"ping"}\r\n');
    await tick();
    expect(written).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error: the message is not valid JSON \(/) } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: the message has no "jsonrpc" member; it must be "jsonrpc": "2.0".' } },
      { jsonrpc: '2.0', id: 77, error: { code: -32600, message: 'Invalid Request: the message has no "jsonrpc" member; it must be "jsonrpc": "2.0".' } },
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error: the message is not valid JSON \(/) } },
      { jsonrpc: '2.0', id: 79, error: { code: -32600, message: 'Invalid Request: "params" must be an object, not a string (in a request).' } },
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid Request: batches (a JSON array of messages) are not supported since MCP 2025-06-18; send each message on its own.' },
      },
    ]);
    expect(rejected).toEqual(written);
    expect(received).toEqual([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
  });

  it('refuses a line over maxLineBytes once and reads the next one', async () => {
    const { stdin, written, received } = await stdio(64);
    stdin.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"${'y'.repeat(40)}`);
    stdin.write(`${'y'.repeat(40)}"}}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n`);
    await tick();
    expect(written).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: the message is over 64 bytes, the most a line may have; it was skipped.' } }]);
    expect(received).toEqual([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
  });

  it('says so when the input ends in the middle of a message, and resolves inputEnded after the last message', async () => {
    const { stdin, transport, written, received } = await stdio();
    stdin.end('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"meth');
    await transport.inputEnded;
    expect(received).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    expect(written).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the input ended in the middle of a message (each message is one line ending in a newline).' } },
    ]);
  });
});
