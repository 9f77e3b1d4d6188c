import { readFile } from 'node:fs/promises';
import { decodeText, sha256 } from '@monorag/shared';

/** A project file read and normalised for chunking. */
export type ReadFileResult =
  | { kind: 'text'; text: string; contentHash: string }
  | { kind: 'binary' }
  | { kind: 'unreadable'; detail: string }
  /** The file no longer exists (deleted or moved away since the walk listed it). */
  | { kind: 'gone' };

/**
 * Reads a file and normalises it with {@link decodeText}; `contentHash` is the hex sha256 of the
 * normalised text, so a file re-saved with CRLF line ends or a BOM keeps its hash. A file that does
 * not exist (ENOENT) is `gone`; any other read error is `unreadable` with its code.
 */
export async function readProjectFile(absPath: string): Promise<ReadFileResult> {
  let bytes: Buffer;
  try {
    bytes = await readFile(absPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'gone' };
    return { kind: 'unreadable', detail: code ?? (error as Error).message };
  }
  const decoded = decodeText(bytes);
  if (decoded.kind === 'binary') return decoded;
  return { kind: 'text', text: decoded.text, contentHash: sha256(decoded.text) };
}

/** The text of a read file, or undefined when it is binary, gone or unreadable. */
export function textOf(read: ReadFileResult): string | undefined {
  return read.kind === 'text' ? read.text : undefined;
}
