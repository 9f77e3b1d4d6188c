import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { ErrorCode, MonoragError } from '@monorag/shared';
import { inOtherUnicodeForm } from './disk-spelling.js';

/** A path checked to lie inside the project. */
export interface ProjectPath {
  /** Repo-relative POSIX path ('' for the root itself). */
  rel: string;
  /** Absolute real path on disk. */
  abs: string;
}

/** What the symbolic link at `abs` holds (its target as written), or undefined when `abs` is no link. */
function linkTarget(abs: string): string | undefined {
  try {
    return lstatSync(abs).isSymbolicLink() ? readlinkSync(abs) : undefined;
  } catch {
    // Nothing there, or a directory above it that loops or dangles: not a link of its own.
    return undefined;
  }
}

function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/**
 * Resolves a user-supplied path (repo-relative, or absolute inside the project) against the project
 * root and refuses anything outside it: `..` segments that climb out, absolute paths elsewhere,
 * symbolic links whose target is outside, and sibling directories that merely share the root's
 * name as a prefix (`/repo-other` for root `/repo`). A path not found as given is looked up in the
 * other Unicode normalisation form (NFC or NFD, component by component) before it is said not to exist;
 * `rel` and `abs` are then spelt as on disk.
 * @param root Absolute real path of the project root.
 * @param argName Name of the argument, used in error messages (e.g. `path`).
 * @throws MonoragError `INVALID_ARGUMENT` (empty, or holding a NUL byte), `PATH_OUTSIDE_PROJECT` or
 *   `NOT_FOUND` (for a symbolic link that dangles or loops, saying so and naming its target), naming the
 *   argument (also in `argument`).
 */
export function resolveProjectPath(root: string, userPath: string, argName = 'path'): ProjectPath {
  const argument = { argument: argName };
  if (typeof userPath !== 'string' || userPath.trim() === '') {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `Argument "${argName}" must be a non-empty path relative to the project root.`, argument);
  }
  if (userPath.includes('\0')) {
    throw new MonoragError(
      ErrorCode.INVALID_ARGUMENT,
      `Argument "${argName}" contains a NUL byte (\\0, %00 in a URL), which no file name can hold; send the path without it.`,
      argument,
    );
  }
  const lexical = path.resolve(root, userPath);
  if (!isInside(root, lexical)) {
    throw new MonoragError(
      ErrorCode.PATH_OUTSIDE_PROJECT,
      `Argument "${argName}" (${userPath}) is outside the project ${root}; give a path relative to the project root.`,
      argument,
    );
  }
  let found = realOf(lexical);
  // Not there as given: the name may be on disk in the other Unicode form (NFC vs NFD); paths are kept as the disk spells them.
  const respelt = 'error' in found && errorCode(found.error) === 'ENOENT' ? inOtherUnicodeForm(root, lexical) : undefined;
  if (respelt !== undefined) found = realOf(respelt);
  if ('error' in found) throw notFound(root, respelt ?? lexical, found.error, userPath, argName);
  return inProject(root, found.real, userPath, argName);
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/**
 * The `NOT_FOUND` error for `userPath` (at `abs`), whose realpath failed with `error`: a symbolic link
 * that dangles or loops is said to be one, naming its target; anything else does not exist.
 */
function notFound(root: string, abs: string, error: unknown, userPath: string, argName: string): MonoragError {
  const argument = { argument: argName };
  const to = linkTarget(abs);
  if (to === undefined) return new MonoragError(ErrorCode.NOT_FOUND, `Argument "${argName}": ${userPath} does not exist in the project ${root}.`, argument);
  const loop = errorCode(error) === 'ELOOP';
  return new MonoragError(
    ErrorCode.NOT_FOUND,
    `Argument "${argName}": ${userPath} is a symbolic link to ${to}, ${loop ? 'a chain of links that leads back to itself' : 'which does not exist'}; ` +
      `the index does not follow it (skip reason "${loop ? 'symlink-loop' : 'symlink-broken'}"), and there is no file to read.`,
    argument,
  );
}

/** The real path of `abs`, or the error realpath threw. */
function realOf(abs: string): { real: string } | { error: unknown } {
  try {
    return { real: realpathSync(abs) };
  } catch (error) {
    return { error };
  }
}

/** `real` as a {@link ProjectPath}, refused when a symbolic link led it outside `root`. */
function inProject(root: string, real: string, userPath: string, argName: string): ProjectPath {
  if (!isInside(root, real)) {
    throw new MonoragError(
      ErrorCode.PATH_OUTSIDE_PROJECT,
      `Argument "${argName}" (${userPath}) leads outside the project ${root} through a symbolic link; refused.`,
      { argument: argName },
    );
  }
  return { rel: path.relative(root, real).split(path.sep).join('/'), abs: real };
}
