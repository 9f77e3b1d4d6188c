import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { HttpErrorBody } from './http-error.js';

/** What a request Node's HTTP parser refused was likely at fault for, by the parser's error code. */
function describeParseError(code: string | undefined): { status: number; reason: string; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, reason: 'Request Header Fields Too Large', message: 'The request headers are too large; send fewer or shorter headers.' };
  }
  if (code === 'HPE_INVALID_URL') {
    return { status: 400, reason: 'Bad Request', message: `The request line is not valid HTTP (${code}); percent-encode characters outside ASCII and spaces in the URL (e.g. encodeURIComponent).` };
  }
  if (code === 'HPE_INVALID_METHOD') {
    // Often the bytes of an earlier request's body past its Content-Length, read as the next request on a kept-alive connection.
    return {
      status: 400,
      reason: 'Bad Request',
      message: `The request does not start with an HTTP method (${code}); if an earlier request on this connection sent a body, check that its Content-Length counts every byte of it.`,
    };
  }
  return { status: 400, reason: 'Bad Request', message: `The request is not valid HTTP (${code ?? 'unknown parse error'}); check its Content-Length, Transfer-Encoding and header lines.` };
}

/**
 * Answers a request that Node's HTTP parser refuses before it reaches the app (a URL with raw non-ASCII
 * bytes, a body longer than its Content-Length, headers too large) with the gateway's JSON error body
 * (`{"error": {code: "INVALID_ARGUMENT", message}}`, status 400, or 431 for oversized headers) instead of
 * Node's bare `400 Bad Request`, then closes the connection, as Node does. A socket that can no longer
 * be written (reset by the client) is destroyed.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const { status, reason, message } = describeParseError(error.code);
    const body: HttpErrorBody = { error: { code: 'INVALID_ARGUMENT', message } };
    const text = JSON.stringify(body);
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  });
}
