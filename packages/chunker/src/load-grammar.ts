import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ErrorCode, MonoragError, errorMessage } from '@monorag/shared';
import { Language, Parser } from 'web-tree-sitter';

// web-tree-sitter's runtime must be initialised exactly once per process: a second `Parser.init()`
// makes a new WASM module and orphans languages loaded into the first one. So both are memoised here.
let runtime: Promise<void> | undefined;
const grammars = new Map<string, Promise<Language>>();

function grammarPath(fileName: string): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@cursorless/tree-sitter-wasms/package.json')), 'out', fileName);
}

async function load(fileName: string): Promise<Language> {
  runtime ??= Parser.init();
  await runtime;
  const path = grammarPath(fileName);
  try {
    return await Language.load(path);
  } catch (error) {
    throw new MonoragError(
      ErrorCode.FILE_UNREADABLE,
      `Cannot load the tree-sitter grammar ${path}: ${errorMessage(error)}. Reinstall dependencies with \`pnpm install\`.`,
      { cause: error },
    );
  }
}

/**
 * A parser for a grammar file of `@cursorless/tree-sitter-wasms/out/` (e.g. `tree-sitter-python.wasm`).
 * Grammars are read once per process and shared; each call returns a new parser.
 * @throws MonoragError FILE_UNREADABLE when the grammar file is missing or incompatible
 */
export async function loadGrammar(fileName: string): Promise<Parser> {
  let language = grammars.get(fileName);
  if (!language) {
    language = load(fileName);
    grammars.set(fileName, language);
    language.catch(() => grammars.delete(fileName));
  }
  const loaded = await language;
  const parser = new Parser();
  parser.setLanguage(loaded);
  return parser;
}
