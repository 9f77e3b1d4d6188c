import { Transform, type Readable, type Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { parseMessage, type RejectedMessage } from './check-message.js';

/** Options of {@link createStdioTransport}. */
export interface StdioTransportOptions {
  stdin?: Readable;
  stdout?: Writable;
  /** Called once for each line refused and answered (for a log line). */
  onReject?: (reply: RejectedMessage, line: string) => void;
  /** Longest line read, in bytes; a longer one is refused and skipped (default 10 MB, the SDK's buffer limit). */
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
 * line that is not JSON (a truncated one too, and the end of input without a newline), -32600 Invalid
 * Request for a batch, a non-object, no `"jsonrpc": "2.0"` or a bad member, with the line's id when it
 * has one. Left to itself the SDK transport drops such lines without a word, and the client waits.
 * Blank lines are skipped. Valid lines go on unchanged; the server keeps serving.
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
  const tooLong = (): RejectedMessage => ({
    jsonrpc: '2.0',
    id: null,
    error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: the message is over ${maxLineBytes} bytes, the most a line may have; it was skipped.` },
  });
  const check = (line: string, push: (text: string) => void): void => {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text.trim() === '') return;
    const checked = parseMessage(text);
    if (checked.ok) push(`${text}\n`);
    else reject(checked.reply, text);
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
        const line = Buffer.concat([...pending, piece]).toString('utf8');
        pending = [];
        pendingBytes = 0;
        check(line, (text) => this.push(text));
      }
      const rest = chunk.subarray(start);
      if (!skipping && rest.length > 0) {
        pending.push(rest);
        pendingBytes += rest.length;
        if (pendingBytes > maxLineBytes) {
          pending = [];
          pendingBytes = 0;
          skipping = true;
          reject(tooLong(), '');
        }
      }
      done();
    },
    flush(done) {
      const rest = Buffer.concat(pending).toString('utf8');
      if (!skipping && rest.trim() !== '') {
        const what = parseMessage(rest).ok ? 'without a newline after its last message, which was not read' : 'in the middle of a message';
        reject({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.ParseError, message: `Parse error: the input ended ${what} (each message is one line ending in a newline).` } }, rest);
      }
      done();
    },
  });
  stdin.on('error', (error) => filter.destroy(error));
  stdin.pipe(filter);
  const inputEnded = new Promise<void>((resolve) => filter.once('end', resolve));
  return Object.assign(new StdioServerTransport(filter, stdout), { inputEnded });
}
