import { Transform, type Readable, type Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { parseMessage, type RejectedMessage } from './check-message.js';
import { LEADING_ID_SCAN, leadingId } from './leading-id.js';

/** Options of {@link createStdioTransport}. */
export interface StdioTransportOptions {
  stdin?: Readable;
  stdout?: Writable;
  /** Called once for each line refused and answered (for a log line). */
  onReject?: (reply: RejectedMessage, line: string) => void;
  /** Longest line read, in bytes before its newline; a longer one is refused and skipped (default 10 MB, the SDK's default buffer limit). */
  maxLineBytes?: number;
}

/** The stdio transport of `monorag serve`, and when its input has been read to the end. */
export interface StdioTransport extends Transport {
  /** Resolves once stdin has ended and every message before its end has been handed to the server. */
  inputEnded: Promise<void>;
}

/**
 * The SDK's `StdioServerTransport`, reading stdin through a filter that answers each line that is not
 * a JSON-RPC message ({@link parseMessage}) on stdout and does not pass it on: -32700 Parse error for a
 * line that is not JSON (a truncated one too), -32600 Invalid Request for a batch, a non-object, no
 * `"jsonrpc": "2.0"` or a bad member, with the line's id when it has one. Left to itself the SDK
 * transport drops such lines without a word, and the client waits. One leading UTF-8 BOM (U+FEFF, which
 * some Windows tools write) is dropped from each line, and blank lines are skipped. Valid lines go on
 * unchanged; the server keeps serving.
 *
 * A line over `maxLineBytes` is skipped up to its newline and answered -32600 once, with the id that
 * {@link leadingId} finds at its beginning (its first 64 KiB), else null. At the end of input, text left
 * without a newline is read as a last line when it is JSON (a whole message is handed to the server
 * before `inputEnded` resolves, so it is answered like the others); text that is not JSON gets -32700
 * (the input ended in the middle of a message), with the id {@link leadingId} finds, else null.
 */
export function createStdioTransport({ stdin = process.stdin, stdout = process.stdout, onReject, maxLineBytes = 10 * 1024 * 1024 }: StdioTransportOptions = {}): StdioTransport {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  /** The current line went over maxLineBytes (and was answered): drop it up to its newline. */
  let skipping = false;

  const reject = (reply: RejectedMessage, line: string): void => {
    stdout.write(`${JSON.stringify(reply)}\n`);
    onReject?.(reply, line);
  };
  /** Answers a line over maxLineBytes, whose beginning is in `parts` (`bytes` long), with the id {@link leadingId} finds there. */
  const refuseTooLong = (parts: Buffer[], bytes: number): void => {
    const id = leadingId(Buffer.concat(parts, Math.min(bytes, LEADING_ID_SCAN)).toString('utf8'));
    const message = `Invalid Request: the message is over ${maxLineBytes} bytes, the most a line may have; it was skipped.`;
    reject({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidRequest, message } }, '');
  };
  /** Passes `line` on or answers it; at the end of input (`last`), text that is not JSON gets the end-of-input error instead. */
  const check = (line: string, push: (text: string) => void, last = false): void => {
    let text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text.startsWith('\uFEFF')) text = text.slice(1);
    if (text.trim() === '') return;
    const checked = parseMessage(text);
    if (checked.ok) push(`${text}\n`);
    else if (last && checked.reply.error.code === ErrorCode.ParseError) {
      const message = 'Parse error: the input ended in the middle of a message (each message is one line ending in a newline).';
      reject({ jsonrpc: '2.0', id: leadingId(text), error: { code: ErrorCode.ParseError, message } }, text);
    } else reject(checked.reply, text);
  };

  const filter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let start = 0;
      for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
        const piece = chunk.subarray(start, newline);
        start = newline + 1;
        if (skipping) {
          skipping = false;
          continue;
        }
        const parts = [...pending, piece];
        const bytes = pendingBytes + piece.length;
        pending = [];
        pendingBytes = 0;
        if (bytes > maxLineBytes) refuseTooLong(parts, bytes);
        else check(Buffer.concat(parts, bytes).toString('utf8'), (text) => this.push(text));
      }
      const rest = chunk.subarray(start);
      if (!skipping && rest.length > 0) {
        pending.push(rest);
        pendingBytes += rest.length;
        if (pendingBytes > maxLineBytes) {
          refuseTooLong(pending, pendingBytes);
          pending = [];
          pendingBytes = 0;
          skipping = true;
        }
      }
      done();
    },
    flush(done) {
      if (!skipping) check(Buffer.concat(pending).toString('utf8'), (text) => this.push(text), true);
      done();
    },
  });
  stdin.on('error', (error) => filter.destroy(error));
  stdin.pipe(filter);
  const inputEnded = new Promise<void>((resolve) => filter.once('end', resolve));
  // The SDK's own buffer must hold a whole line and its newline (it closes the transport past its limit).
  return Object.assign(new StdioServerTransport(filter, stdout, { maxBufferSize: maxLineBytes + 1 }), { inputEnded });
}
