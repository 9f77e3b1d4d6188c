import { PassThrough } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { RejectedMessage } from './check-message.js';
import { createStdioTransport } from './stdio-transport.js';
import { createTrackedTransport } from './tracked-transport.js';

/** A transport over in-memory stdin/stdout; collects what the server would get (unless `start` is false), what is written, and the refusals. */
async function stdio(maxLineBytes?: number, start = true) {
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
  if (start) {
    transport.onmessage = (message) => received.push(message);
    await transport.start();
  }
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
      { jsonrpc: '2.0', id: 80, error: { code: -32700, message: expect.stringMatching(/^Parse error: the message is not valid JSON \(/) } },
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
    expect(written).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'Invalid Request: the message is over 64 bytes, the most a line may have; it was skipped.' } }]);
    expect(received).toEqual([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
  });

  it('says so, with the id at its beginning, when the input ends in the middle of a message, and resolves inputEnded after the last message', async () => {
    const { stdin, transport, written, received } = await stdio();
    stdin.end('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"meth');
    await transport.inputEnded;
    expect(received).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    expect(written).toEqual([
      { jsonrpc: '2.0', id: 2, error: { code: -32700, message: 'Parse error: the input ended in the middle of a message (each message is one line ending in a newline).' } },
    ]);
  });

  it('answers a line over maxLineBytes with the "id" at its beginning when it has one there, else null', async () => {
    const { stdin, written, received } = await stdio(64);
    const over = (start: string) => `${start}"params":{"x":"${'y'.repeat(80)}"}}\n`;
    stdin.write(over('{"jsonrpc":"2.0","id":14,"method":"tools/call",').slice(0, 50));
    stdin.write(over('{"jsonrpc":"2.0","id":14,"method":"tools/call",').slice(50));
    stdin.write(over('{"id":"req \\"7\\"","jsonrpc":"2.0","method":"tools/call",'));
    stdin.write(over('{"jsonrpc":"2.0","method":"tools/call","id":16,'));
    stdin.write('{"jsonrpc":"2.0","id":17,"method":"ping"}\n');
    await tick();
    const error = { code: -32600, message: 'Invalid Request: the message is over 64 bytes, the most a line may have; it was skipped.' };
    expect(written).toEqual([
      { jsonrpc: '2.0', id: 14, error },
      { jsonrpc: '2.0', id: 'req "7"', error },
      { jsonrpc: '2.0', id: null, error },
    ]);
    expect(received).toEqual([{ jsonrpc: '2.0', id: 17, method: 'ping' }]);
  });

  it('answers a complete last message sent without a newline before the input ends', async () => {
    const { stdin, transport, written } = await stdio(undefined, false);
    const tracked = createTrackedTransport(transport);
    await new Server({ name: 'test', version: '0' }, { capabilities: {} }).connect(tracked);
    stdin.end('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}');
    await transport.inputEnded;
    expect(tracked.pending() + written.length).toBe(2);
    expect(await tracked.drained(5_000)).toBe(true);
    expect(written).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
  });

  it('answers a last line without a newline like any line when it is JSON, and by the id at its beginning when it is not', async () => {
    const first = await stdio();
    first.stdin.end('{"id":3,"method":"ping"}\r');
    await first.transport.inputEnded;
    expect(first.written).toEqual([{ jsonrpc: '2.0', id: 3, error: { code: -32600, message: 'Invalid Request: the message has no "jsonrpc" member; it must be "jsonrpc": "2.0".' } }]);
    const second = await stdio();
    second.stdin.end('{"jsonrpc":"2.0","method":"tools/call","id":4');
    await second.transport.inputEnded;
    expect(second.written).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the input ended in the middle of a message (each message is one line ending in a newline).' } },
    ]);
    expect([first.received, second.received]).toEqual([[], []]);
  });

  it('reads a line of exactly maxLineBytes, the default 10 MB too', async () => {
    const { stdin, received, written } = await stdio();
    const start = '{"jsonrpc":"2.0","id":9,"method":"ping","params":{"x":"';
    stdin.write(`${start}${'y'.repeat(10 * 1024 * 1024 - start.length - 3)}"}}\n`);
    await tick();
    expect(written).toEqual([]);
    expect(received).toMatchObject([{ id: 9, method: 'ping' }]);
  });

  it('drops one leading UTF-8 BOM from a line before reading it', async () => {
    const { stdin, written, received } = await stdio();
    stdin.write('\uFEFF{"jsonrpc":"2.0","id":5,"method":"ping"}\r\n\uFEFF\n');
    stdin.write(Buffer.from([0xef, 0xbb]));
    stdin.write(Buffer.concat([Buffer.from([0xbf]), Buffer.from('{"jsonrpc":"2.0","id":6,"method":"ping"}\n')]));
    stdin.write('\uFEFF\uFEFF{"jsonrpc":"2.0","id":7,"method":"ping"}\n');
    await tick();
    expect(received).toEqual([
      { jsonrpc: '2.0', id: 5, method: 'ping' },
      { jsonrpc: '2.0', id: 6, method: 'ping' },
    ]);
    expect(written).toEqual([{ jsonrpc: '2.0', id: 7, error: { code: -32700, message: expect.stringMatching(/^Parse error: the message is not valid JSON \(.*\); it starts with a byte order mark \(U\+FEFF\)/) } }]);
  });
});
