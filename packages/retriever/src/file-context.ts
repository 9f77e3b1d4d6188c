import { ErrorCode, MonoragError, decodeText, holdsPrivateKey } from '@monorag/shared';
import { findSecrets, redactSecrets } from '@monorag/secrets';
import { resolveProjectPath } from './project-path.js';
import { readRegularFile } from './read-regular-file.js';
import { spansInLines } from './spans-in-lines.js';

/** Options of {@link readFileContext}. */
export interface FileContextOptions {
  /** Absolute real path of the project root. */
  root: string;
  /** Repo-relative path (or absolute inside the project). */
  path: string;
  /** First line, 1-based inclusive; default 1. */
  startLine?: number;
  /** Last line, 1-based inclusive; default the file's last line (the response stops after maxLines lines all the same, and says so with `truncated`). */
  endLine?: number;
  /** Most lines returned at once; default 400. */
  maxLines?: number;
  /** Most characters of `text` returned at once; default 40,000. A longer single line is cut (see `FileContext.cutLine`). */
  maxChars?: number;
  /** Files larger than this many bytes are refused; default 4 MiB. */
  maxFileBytes?: number;
  /**
   * Whether a repo-relative path may be read; default: any file inside the root. The CLI passes the
   * index's ignore rules, so secrets (`.env`, keys), `.git/` and ignored files are never served.
   */
  isReadable?: (relPath: string) => boolean;
}

/** Lines of one file, bounded. */
export interface FileContext {
  path: string;
  /** First line returned, 1-based. */
  startLine: number;
  /**
   * Last line returned, 1-based inclusive (may be below the requested endLine when bounded or clamped);
   * 0 for an empty file, which has no line (startLine 1, endLine 0: no line returned).
   */
  endLine: number;
  /** Lines in the whole file; 0 for an empty file (0 bytes). */
  totalLines: number;
  /** The lines startLine..endLine joined by '\n'; never longer than maxChars characters. */
  text: string;
  /**
   * True when maxLines or maxChars stopped the response before the requested endLine (or before the
   * file's end when none was given), or cut its one line; reaching the end of the file is not truncation.
   */
  truncated: boolean;
  /**
   * Set when line startLine alone is longer than maxChars: `text` then holds only its first `shown`
   * characters (maxChars, or one fewer so as not to split a surrogate pair) of its `chars`. Lines are
   * read from their start only, so the rest of that line cannot be read.
   */
  cutLine?: { line: number; shown: number; chars: number };
  /**
   * Secrets (API and cloud tokens, credentials in URLs: `findSecrets`) in the returned lines, each shown
   * as `[REDACTED:<rule>]` instead; absent when there are none. Line numbers are those of the file.
   */
  redacted?: number;
}

function checkLine(value: number | undefined, name: string): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `Argument "${name}" must be a whole number >= 1 (lines are 1-based); got ${value}.`, { argument: name });
  }
}

/** The first `maxChars` characters of `line`, one fewer when the cut would split a surrogate pair. */
function cutLineAt(line: string, maxChars: number): string {
  const code = line.charCodeAt(maxChars - 1);
  return line.slice(0, code >= 0xd800 && code <= 0xdbff ? maxChars - 1 : maxChars);
}

/**
 * Reads lines startLine..endLine (1-based inclusive) of a project file, bounded by maxLines and
 * maxChars characters (whole lines, except that a first line longer than maxChars is cut at maxChars),
 * with the path checked by `resolveProjectPath`. A file whose content holds a private key (the
 * indexer's `secret` skip reason, detected by the same `holdsPrivateKey`) is refused whether or not it
 * was ever indexed. Secrets in the file are replaced by `[REDACTED:<rule>]` (as the indexer does,
 * whatever the index holds; `redacted` counts those in the lines returned); line numbers, line counts and
 * the `maxChars` bound apply to the redacted text. An empty file (0 bytes) has 0 lines: read from line 1
 * it gives `totalLines` 0, `endLine` 0 and no text.
 * @throws MonoragError `INVALID_ARGUMENT` (bad range, startLine past the end of the file; a path that
 *   is empty, holds a NUL byte or is not a regular file, such as a directory or a named pipe, which is
 *   never read from), `PATH_OUTSIDE_PROJECT` (outside the root), `PATH_IGNORED` (inside it but excluded
 *   by `isReadable` or holding a private key: the index leaves it out), `NOT_FOUND`, `FILE_UNREADABLE` (also when the secret scan fails). Errors about one
 *   argument name it in their message and in `argument`.
 */
export async function readFileContext(options: FileContextOptions): Promise<FileContext> {
  const { root, maxLines = 400, maxChars = 40_000, maxFileBytes = 4 * 1024 * 1024 } = options;
  checkLine(options.startLine, 'startLine');
  checkLine(options.endLine, 'endLine');
  const startLine = options.startLine ?? 1;
  if (options.endLine !== undefined && options.endLine < startLine) {
    throw new MonoragError(
      ErrorCode.INVALID_ARGUMENT,
      `Argument "endLine" (${options.endLine}) is before "startLine" (${startLine}); give an endLine >= startLine, or none.`,
      { argument: 'endLine' },
    );
  }
  const target = resolveProjectPath(root, options.path, 'path');
  if (target.rel === '') {
    // The root itself: no ignore rule applies to it, so say what it is rather than that it is ignored.
    throw new MonoragError(
      ErrorCode.INVALID_ARGUMENT,
      `Argument "path": ${options.path} is the project's root directory, not a regular file; only regular files can be read.`,
      { argument: 'path' },
    );
  }
  if (options.isReadable && !options.isReadable(target.rel)) {
    throw new MonoragError(
      ErrorCode.PATH_IGNORED,
      `Argument "path": ${target.rel} is excluded by the project's ignore rules (.gitignore, .monoragignore, or monorag's defaults for secrets, .git and dependencies); it is not served.`,
      { argument: 'path' },
    );
  }
  const bytes = await readRegularFile(target.abs, target.rel, maxFileBytes);
  const decoded = decodeText(bytes);
  if (decoded.kind === 'binary') {
    throw new MonoragError(ErrorCode.FILE_UNREADABLE, `Argument "path": ${target.rel} is a binary file.`, { argument: 'path' });
  }
  if (holdsPrivateKey(decoded.text)) {
    throw new MonoragError(
      ErrorCode.PATH_IGNORED,
      `Argument "path": ${target.rel} holds a private key, so the index leaves it out (skip reason "secret"); it is not served.`,
      { argument: 'path' },
    );
  }
  const secrets = await findSecrets(target.rel, decoded.text);
  const served = secrets.length > 0 ? redactSecrets(decoded.text, secrets) : decoded.text;
  /** `redacted` of the result for lines from..to: present only when secrets were replaced there. */
  const redacted = (from: number, to: number): { redacted?: number } => {
    const count = spansInLines(decoded.text, secrets, from, to);
    return count > 0 ? { redacted: count } : {};
  };
  // An empty file has no line (a file of one newline has one, empty).
  const lines = served === '' ? [] : served.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const totalLines = lines.length;
  if (totalLines === 0 && startLine === 1) return { path: target.rel, startLine: 1, endLine: 0, totalLines: 0, text: '', truncated: false };
  if (startLine > totalLines) {
    const size = totalLines === 0 ? 'is empty (0 lines)' : `has ${totalLines} line${totalLines === 1 ? '' : 's'}`;
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `Argument "startLine" (${startLine}) is past the end of ${target.rel}, which ${size}.`, {
      argument: 'startLine',
    });
  }
  const first = lines[startLine - 1]!;
  if (first.length > maxChars) {
    const text = cutLineAt(first, maxChars);
    return {
      path: target.rel, startLine, endLine: startLine, totalLines, text, truncated: true,
      cutLine: { line: startLine, shown: text.length, chars: first.length }, ...redacted(startLine, startLine),
    };
  }
  // No endLine asks for the rest of the file: stopping after maxLines lines is truncation then too.
  const wantedEnd = options.endLine ?? totalLines;
  let endLine = Math.min(wantedEnd, totalLines, startLine + maxLines - 1);
  // Whole lines while they fit: a later line too long for the rest of the budget starts the next call.
  let chars = first.length;
  for (let line = startLine + 1; line <= endLine; line++) {
    chars += 1 + lines[line - 1]!.length;
    if (chars > maxChars) {
      endLine = line - 1;
      break;
    }
  }
  return {
    path: target.rel,
    startLine,
    endLine,
    totalLines,
    text: lines.slice(startLine - 1, endLine).join('\n'),
    // Cut short by maxLines or maxChars; reaching the end of the file is not truncation.
    truncated: endLine < Math.min(wantedEnd, totalLines),
    ...redacted(startLine, endLine),
  };
}
