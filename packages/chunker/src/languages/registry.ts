import type { LanguageSpec } from './language-spec.js';
import { JAVA, CSHARP, KOTLIN, SWIFT, SCALA, DART } from './managed.js';
import { JSON_DATA, JUPYTER, MARKDOWN, RESTRUCTURED_TEXT, SVELTE, TOML_DATA, VUE, YAML_DATA } from './markup.js';
import { BASH, ELIXIR, LUA, PHP, RUBY } from './scripting.js';
import { C, CPP, GO, RUST } from './systems.js';
import { PYTHON } from './python.js';
import { JAVASCRIPT, TSX, TYPESCRIPT } from './typescript.js';
import { WINDOW_LANGUAGES } from './window-languages.js';

/** Language id of any file the registry does not recognise; chunked by line windows. */
export const TEXT_LANGUAGE_ID = 'text';

const TEXT: LanguageSpec = { id: TEXT_LANGUAGE_ID, extensions: ['.txt'], strategy: 'window' };

/** Every language the chunker knows, as data. Syntax languages first. */
export const LANGUAGES: readonly LanguageSpec[] = [
  TYPESCRIPT, TSX, JAVASCRIPT, PYTHON,
  GO, RUST, JAVA, C, CPP, CSHARP, RUBY, PHP, BASH,
  KOTLIN, SWIFT, SCALA, LUA, ELIXIR, DART,
  MARKDOWN, RESTRUCTURED_TEXT, JSON_DATA, YAML_DATA, TOML_DATA, VUE, SVELTE, JUPYTER,
  ...WINDOW_LANGUAGES, TEXT,
];

const byExtension = new Map<string, LanguageSpec>();
const byFileName = new Map<string, LanguageSpec>();
const byInterpreter = new Map<string, LanguageSpec>();
const byId = new Map<string, LanguageSpec>();
for (const spec of LANGUAGES) {
  byId.set(spec.id, spec);
  for (const extension of spec.extensions) byExtension.set(extension, spec);
  for (const name of spec.fileNames ?? []) byFileName.set(name, spec);
  for (const name of spec.interpreters ?? []) byInterpreter.set(name, spec);
}

/** The spec of a language id (`typescript`, `python`, ...); the `text` spec for unknown ids. */
export function languageById(id: string): LanguageSpec {
  return byId.get(id) ?? TEXT;
}

/** Interpreter named by a `#!` first line (`#!/usr/bin/env -S node --x` gives `node`), or null. */
export function shebangInterpreter(text: string): string | null {
  if (!text.startsWith('#!')) return null;
  const end = text.indexOf('\n');
  const words = text.slice(2, end === -1 ? Math.min(text.length, 200) : Math.min(end, 200)).trim().split(/\s+/);
  let program = (words[0] ?? '').split('/').pop() ?? '';
  if (program === 'env') program = words.slice(1).find((word) => !word.startsWith('-')) ?? '';
  // python3.11 -> python3, node20 -> node
  const base = program.replace(/[\d.]+$/, '');
  return byInterpreter.has(program) ? program : base;
}

/**
 * The language spec of a file: by extension (case-insensitive, last dot), then exact file name,
 * then the interpreter of a `#!` first line in `text`; otherwise `text`.
 * @param path repo-relative POSIX path
 */
export function findLanguage(path: string, text: string): LanguageSpec {
  const name = (path.split('/').pop() ?? path).toLowerCase();
  const dot = name.lastIndexOf('.');
  if (dot > 0) {
    const spec = byExtension.get(name.slice(dot));
    if (spec) return spec;
  }
  const named = byFileName.get(name);
  if (named) return named;
  const interpreter = shebangInterpreter(text);
  if (interpreter !== null) return byInterpreter.get(interpreter) ?? TEXT;
  return TEXT;
}

/** The language id of a file (see `findLanguage`), e.g. `typescript`; `text` when unknown. */
export function languageOf(path: string, text: string): string {
  return findLanguage(path, text).id;
}
