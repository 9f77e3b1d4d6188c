import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** True when something (a file, a directory, a link, even a dangling one) is at `abs`. */
export function existsOnDisk(abs: string): boolean {
  try {
    lstatSync(abs);
    return true;
  } catch {
    return false;
  }
}

/** The entries of directory `dir`, or an empty list when it cannot be listed (absent, not a directory, no permission). */
function entriesOf(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    // Nothing to match against there; the caller keeps the name as given.
    return [];
  }
}

/**
 * `lexical` (an absolute path inside `root`) spelt as on disk when it names an entry only in another
 * Unicode normalisation form: each component below `root` that does not exist as given is matched to
 * the entry of its directory equal to it in NFC (so `résumé` typed precomposed, NFC, finds a name
 * written decomposed, NFD, as macOS writes names, and the other way round). Undefined when a component
 * has no such entry, or the path is ASCII (which has one form).
 */
export function inOtherUnicodeForm(root: string, lexical: string): string | undefined {
  if (!/[^\p{ASCII}]/u.test(lexical)) return undefined;
  let current = root;
  for (const part of path.relative(root, lexical).split(path.sep)) {
    const given = path.join(current, part);
    if (existsOnDisk(given)) {
      current = given;
      continue;
    }
    const wanted = part.normalize('NFC');
    const match = entriesOf(current).find((entry) => entry.normalize('NFC') === wanted);
    if (match === undefined) return undefined;
    current = path.join(current, match);
  }
  return current;
}

/**
 * A path prefix (an absolute path inside `root` whose last component may be only the start of a name,
 * e.g. `<root>/docs/rés`) spelt as on disk: the whole components as {@link inOtherUnicodeForm} finds
 * them, and a last component that exists in no form as given written in the form (NFC or NFD) of the
 * first entry of its directory that starts with it in NFC. `lexical` itself when nothing on disk
 * says otherwise (ASCII, an existing path, a name not there yet).
 */
export function prefixAsOnDisk(root: string, lexical: string): string {
  if (!/[^\p{ASCII}]/u.test(lexical) || existsOnDisk(lexical)) return lexical;
  const whole = inOtherUnicodeForm(root, lexical);
  if (whole !== undefined) return whole;
  const dir = path.dirname(lexical);
  if (dir === lexical || path.relative(root, dir).startsWith('..')) return lexical;
  const parent = existsOnDisk(dir) ? dir : inOtherUnicodeForm(root, dir);
  if (parent === undefined) return lexical;
  const start = path.basename(lexical).normalize('NFC');
  const entry = entriesOf(parent).find((name) => name.normalize('NFC').startsWith(start));
  if (entry === undefined) return path.join(parent, path.basename(lexical));
  const form = entry === entry.normalize('NFD') ? 'NFD' : 'NFC';
  return path.join(parent, path.basename(lexical).normalize(form));
}
