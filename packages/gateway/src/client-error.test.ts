import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { answerClientErrors } from './client-error.js';

/** Sends `raw` bytes on a new connection and resolves with everything the server wrote before closing it. */
function exchange(port: number, raw: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString('utf8')));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
}

describe('answerClientErrors', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()) ?? resolve());
    server = undefined;
  });

  async function listen(): Promise<number> {
    server = createServer((_req, res) => res.end('{"ok":true}'));
    answerClientErrors(server);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
    return (server!.address() as AddressInfo).port;
  }

  it('answers a request the HTTP parser refuses with a JSON error body, not a bare 400 (trial: raw non-ASCII URL, body past Content-Length)', async () => {
    const port = await listen();
    const url = await exchange(port, Buffer.concat([Buffer.from('GET /v1/file?path=w'), Buffer.from('é', 'utf8'), Buffer.from('ird HTTP/1.1\r\nHost: x\r\n\r\n')]));
    expect(url).toMatch(/^HTTP\/1\.1 400 Bad Request\r\nContent-Type: application\/json; charset=utf-8\r\n/);
    const body = JSON.parse(url.slice(url.indexOf('\r\n\r\n') + 4)) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('INVALID_ARGUMENT');
    expect(body.error.message).toMatch(/^The request line is not valid HTTP \(HPE_INVALID_URL\); percent-encode characters outside ASCII/);

    const overlong = await exchange(port, Buffer.from('POST /v1/search HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{"query":"x"}'));
    // The first request is answered; the bytes past its Content-Length are read as a second request, which the parser refuses.
    expect(overlong).toContain('{"ok":true}');
    expect(overlong).toMatch(/HTTP\/1\.1 400 Bad Request\r\nContent-Type: application\/json; charset=utf-8\r\n[\s\S]*"code":"INVALID_ARGUMENT"/);
    // It names the likely cause, not the URL advice (a second trial).
    expect(overlong).toContain('check that its Content-Length counts every byte of it');
  });
});
