import { ErrorCode, MonoragError, nearestName } from '@monorag/shared';
import { LANGUAGES } from './registry.js';

/** Names people use for a language that are neither its id, one of its extensions nor one of its interpreters. */
const NAMED_ALIASES: Readonly<Record<string, string>> = {
  golang: 'go',
  'c#': 'csharp',
  shell: 'bash',
  restructuredtext: 'rst',
  plaintext: 'text',
  docker: 'dockerfile',
  make: 'makefile',
  notebook: 'jupyter',
};

/** Lower-case alias -> language id: named aliases, then interpreters, then extensions without the dot. */
const ALIASES = new Map<string, string>();
for (const spec of LANGUAGES) {
  for (const extension of spec.extensions) if (!ALIASES.has(extension.slice(1))) ALIASES.set(extension.slice(1), spec.id);
}
for (const spec of LANGUAGES) for (const name of spec.interpreters ?? []) ALIASES.set(name, spec.id);
for (const [alias, id] of Object.entries(NAMED_ALIASES)) ALIASES.set(alias, id);
for (const spec of LANGUAGES) ALIASES.set(spec.id, spec.id);

/** Every language id the chunker stores in chunks (`Chunk.language`), in registry order. */
export const LANGUAGE_IDS: readonly string[] = LANGUAGES.map((spec) => spec.id);

/** Like {@link resolveLanguageId}, without throwing: the language id `name` means, or undefined when it means none. */
export function languageIdOf(name: string): string | undefined {
  return ALIASES.get(name.trim().toLowerCase());
}

/**
 * The language id (as stored in chunks) that a user-given language name means, case-insensitively:
 * an id (`typescript`), a file extension without the dot (`ts`, `py`, `rs`, `yml`), an interpreter
 * (`node`, `python3`) or a common name (`golang`, `c#`, `shell`). Note that `tsx` is a language of its own.
 * @param argName the flag or tool argument the name came from, named in errors (e.g. `--language`).
 * @throws MonoragError `INVALID_ARGUMENT` naming the argument and listing the valid ids (with the nearest one when close).
 */
export function resolveLanguageId(name: string, argName = 'language'): string {
  const id = languageIdOf(name);
  if (id !== undefined) return id;
  const nearest = name.trim() === '' ? undefined : nearestName(name.trim(), LANGUAGE_IDS);
  throw new MonoragError(
    ErrorCode.INVALID_ARGUMENT,
    `${argName}: ${name.trim() === '' ? 'no language given' : `unknown language "${name}"`}${nearest ? ` (did you mean "${nearest}"?)` : ''}. ` +
      `Give one of: ${LANGUAGE_IDS.join(', ')} (file extensions such as ts, js, py also work).`,
  );
}
