import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { Chunk, CodeSymbol } from '@monorag/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundledVocabulary } from './bundled-tokenizer.js';
import { isDataChunk } from './drop-data-chunks.js';
import { isPragmaChunk } from './drop-pragma-chunks.js';
import type { Chunker } from './chunker.js';
import { createChunker } from './create-chunker.js';
import { estimateTokens } from './estimate-tokens.js';
import { BERT_SPECIAL_TOKENS, createWordPieceCounter } from './wordpiece.js';

// The eval corpora (`node eval/fetch-corpora.mjs`): real code the chunker must handle. Skipped, and says so, without them.
const corpora = new URL('../../../eval/.corpora/', import.meta.url);
const undici = new URL('undici-8.13.1/', corpora);
const pino = new URL('pino-10.4.0/', corpora);
// The other pinned corpora, for the coverage property: Python (click, structlog, attrs), TypeScript (trpc) and Go (cobra) as published.
const others = ['click-8.1.8/', 'structlog-25.4.0/', 'attrs-25.3.0/', 'trpc-server-11.25.2/', 'cobra-1.10.2/'].map((dir) => new URL(dir, corpora));
const present = existsSync(undici) && existsSync(pino) && others.every((dir) => existsSync(dir));

/** Text files of a corpus directory (repo-relative path, text), skipping binaries and node_modules. */
function corpusFiles(root: URL, under = ''): [string, string][] {
  const files: [string, string][] = [];
  for (const rel of readdirSync(new URL(under, root), { recursive: true }) as string[]) {
    const path = `${under}${rel}`;
    const url = new URL(path, root);
    if (path.includes('node_modules') || !statSync(url).isFile() || statSync(url).size > 1 << 20) continue;
    const text = readFileSync(url, 'utf8');
    if (!text.includes('\0')) files.push([path, text]);
  }
  return files.sort(([a], [b]) => a.localeCompare(b));
}

const MAX_TOKENS = 256;
// Real word pieces of all-MiniLM-L6-v2 when its tokenizer is installed (scripts/setup.sh), else the estimate.
const vocab = bundledVocabulary();
const countTokens = vocab ? createWordPieceCounter(vocab) : estimateTokens;
/** What the model sees of a chunk: header + '\n' + content, plus [CLS] and [SEP]. */
const tokensOf = (chunk: Chunk): number => countTokens(`${chunk.header}\n${chunk.content}`) + BERT_SPECIAL_TOKENS;

let chunker: Chunker;
beforeAll(async () => {
  chunker = await createChunker({ maxTokens: MAX_TOKENS, countTokens });
});

if (!present && process.env.CI) throw new Error('The eval corpora are missing: run `node eval/fetch-corpora.mjs` (scripts/test.sh does).');

describe.skipIf(!present)('the eval corpora (pino 10.4.0, undici 8.13.1 lib/; the coverage property on the other corpora too)', () => {
  it(`covers every non-blank line once, keeps ranges in the file, bounds sizes (${vocab ? 'real word pieces' : 'estimated tokens'}), and gives the same ids twice`, () => {
    const files = [...corpusFiles(pino), ...corpusFiles(undici, 'lib/'), ...others.flatMap((dir) => corpusFiles(dir))];
    expect(files.length).toBeGreaterThan(800);
    const overLimit: string[] = [];
    for (const [path, text] of files) {
      const chunks = chunker.chunk(path, text);
      const lines = text.split('\n');
      const owner = new Int32Array(lines.length).fill(-1);
      chunks.forEach((chunk, index) => {
        expect(chunk.startLine >= 1 && chunk.endLine <= lines.length && chunk.startLine <= chunk.endLine, `${path}:${chunk.startLine}`).toBe(true);
        expect(chunk.content).toBe(lines.slice(chunk.startLine - 1, chunk.endLine).join('\n'));
        for (let line = chunk.startLine; line <= chunk.endLine; line++) {
          expect(owner[line - 1], `${path}: line ${line} in two chunks`).toBe(-1);
          owner[line - 1] = index;
        }
        // Over the limit only as a single line, which no line window can split (README).
        const tokens = tokensOf(chunk);
        if (tokens > MAX_TOKENS && chunk.startLine !== chunk.endLine) overLimit.push(`${path}:${chunk.startLine}-${chunk.endLine} (${tokens} tokens)`);
      });
      // Lines of inlined base64/hex data (undici's lib/milo WebAssembly modules) and source-map pragmas
      // (`//# sourceMappingURL=...` closing trpc's dist/ files) are the kinds of line no chunk holds.
      const uncovered = lines.findIndex((line, row) => line.trim() !== '' && owner[row] === -1 && !isDataChunk(line) && !isPragmaChunk(line));
      expect(uncovered, `${path}: line ${uncovered + 1} not covered`).toBe(-1);
      expect(chunker.chunk(path, text).map((chunk) => chunk.id)).toEqual(chunks.map((chunk) => chunk.id));
    }
    expect(overLimit).toEqual([]);
  });

  it('leaves no class line a chunk alone where it can join the chunk after it (tsc-11 left 23 in undici lib/)', () => {
    const alone: string[] = [];
    for (const [path, text] of [...corpusFiles(pino), ...corpusFiles(undici, 'lib/')]) {
      for (const chunk of chunker.chunk(path, text)) {
        if (chunk.kind === 'class' && chunk.startLine === chunk.endLine) alone.push(`${path}:${chunk.startLine}`);
      }
    }
    // The one left: `class PipelineHandler extends AsyncResource {`, whose constructor's first part fills the limit.
    if (vocab) expect(alone).toEqual(['lib/api/api-pipeline.js:68']);
    else expect(alone.length).toBeLessThanOrEqual(3);
    // click's `class Path(ParamType):` before a docstring over the limit opens the docstring's first window (was alone).
    const click = new URL('click-8.1.8/src/click/types.py', corpora);
    if (existsSync(click)) {
      const path = chunker.chunk('src/click/types.py', readFileSync(click, 'utf8')).find((chunk) => chunk.startLine === 768);
      expect(path?.endLine).toBeGreaterThan(768);
    }
  });

  it('finds every call site and require binding of undici parseHeaders (checked by hand against grep) and reports no definition as a call', () => {
    // grep -rnE '\bparseHeaders\s*(\?\.)?\(' . | grep -v 'function parseHeaders', each line read by hand.
    const expected = [
      'lib/core/request.js:349 Request.onResponseStart',
      'lib/core/request.js:399 Request.onRequestUpgrade',
      'lib/core/request.js:429 Request.onResponseEnd',
      'lib/mock/mock-utils.js:537 dispatchMockReply.handleReply',
      'lib/mock/mock-utils.js:539 dispatchMockReply.handleReply',
    ];
    const calls: string[] = [];
    // grep -rn parseHeaders . | grep require: the names bound by `const { ..., parseHeaders } = require('./util')` (a commented one aside).
    const imports: string[] = [];
    const definitions: (CodeSymbol & { path: string })[] = [];
    const allCalls: (CodeSymbol & { path: string })[] = [];
    for (const [path, text] of corpusFiles(undici)) {
      for (const symbol of chunker.analyse(path, text).symbols) {
        if (symbol.role === 'definition') definitions.push({ ...symbol, path });
        else if (symbol.kind === 'call') allCalls.push({ ...symbol, path });
        if (symbol.name === 'parseHeaders' && symbol.kind === 'call') calls.push(`${path}:${symbol.startLine} ${symbol.enclosing}`);
        if (symbol.name === 'parseHeaders' && symbol.kind === 'import') imports.push(`${path}:${symbol.startLine}`);
      }
    }
    expect(calls).toEqual(expected);
    expect(imports).toEqual(['lib/core/request.js:19', 'lib/mock/mock-utils.js:12']);
    expect(definitions.filter((d) => d.name === 'parseHeaders').map((d) => `${d.path}:${d.startLine}`)).toEqual(['lib/core/util.js:449', 'types/util.d.ts:14']);
    // No definition's own name is reported as a call: a call on a definition's first line with its name would be one.
    const definitionStarts = new Set(definitions.map((d) => `${d.path}:${d.startLine}:${d.name}`));
    const suspicious = allCalls.filter((call) => definitionStarts.has(`${call.path}:${call.startLine}:${call.name}`));
    expect(suspicious.map((call) => `${call.path}:${call.startLine} ${call.name}`)).toEqual([]);
  });
});
