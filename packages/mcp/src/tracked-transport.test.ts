import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createTrackedTransport } from './tracked-transport.js';

/** A tracked server side linked to a raw client side whose received messages are collected. */
async function linked() {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const received: JSONRPCMessage[] = [];
  clientSide.onmessage = (message) => received.push(message);
  await clientSide.start();
  const tracked = createTrackedTransport(serverSide);
  const requests: JSONRPCMessage[] = [];
  tracked.onmessage = (message) => requests.push(message);
  await tracked.start();
  return { clientSide, tracked, received, requests };
}

describe('createTrackedTransport', () => {
  it('counts a request from its arrival to its answer, not notifications', async () => {
    const { clientSide, tracked, requests } = await linked();
    await clientSide.send({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
    await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await clientSide.send({ jsonrpc: '2.0', id: 'b', method: 'ping' });
    expect(requests).toHaveLength(3);
    expect(tracked.pending()).toBe(2);
    const drained = tracked.drained(60_000);
    await tracked.send({ jsonrpc: '2.0', id: 7, result: {} });
    expect(tracked.pending()).toBe(1);
    await tracked.send({ jsonrpc: '2.0', id: 'b', error: { code: -32601, message: 'Method not found' } });
    expect(tracked.pending()).toBe(0);
    expect(await drained).toBe(true);
  });

  it('drained resolves false after the time-out while a request is unanswered', async () => {
    const { clientSide, tracked } = await linked();
    await clientSide.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } });
    const started = Date.now();
    expect(await tracked.drained(50)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(tracked.pending()).toBe(1);
  });

  it('drained resolves true at once with nothing pending; messages and close pass through', async () => {
    const { clientSide, tracked, received } = await linked();
    expect(await tracked.drained(60_000)).toBe(true);
    await tracked.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect(received).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
    let closed = false;
    tracked.onclose = () => (closed = true);
    await clientSide.close();
    expect(closed).toBe(true);
  });
});
