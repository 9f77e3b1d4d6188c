import { readFileSync } from 'node:fs';
import type { Chunk } from '@monorag/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Chunker } from './chunker.js';
import { createChunker } from './create-chunker.js';
import { estimateTokens } from './estimate-tokens.js';
import { BERT_SPECIAL_TOKENS } from './wordpiece.js';

// Written as Jupyter writes it (json.dumps(sort_keys=True, indent=1) + '\n'): a Markdown heading cell, a code cell
// defining a function and a class, a code cell with a stream output and an image/png output, a raw cell.
const SALES = readFileSync(new URL('../test/notebooks/sales.ipynb', import.meta.url), 'utf8');
const PATH = 'notebooks/sales.ipynb';

/** [startLine, endLine, kind, symbol, scopes joined by ' > '] */
type Row = [number, number, Chunk['kind'], string | null, string];
const rows = (chunks: Chunk[]): Row[] => chunks.map((c) => [c.startLine, c.endLine, c.kind, c.symbol, c.scopes.join(' > ')]);

/** The notebook with every cell's source array joined into one string, written with `indent` (none: one line). */
function withStringSources(text: string, indent?: number): string {
  const nb = JSON.parse(text) as { cells: { source: string[] | string }[] };
  for (const cell of nb.cells) cell.source = (cell.source as string[]).join('');
  return JSON.stringify(nb, null, indent);
}

let chunker: Chunker;
beforeAll(async () => {
  chunker = await createChunker({ maxTokens: 256 });
});

describe('Jupyter notebooks', () => {
  it('chunks the cells by their decoded source, with the lines of the .ipynb that hold it', () => {
    const analysis = chunker.analyse(PATH, SALES);
    expect(analysis.language).toBe('jupyter');
    expect(analysis.fallback).toBeNull();
    expect(rows(analysis.chunks)).toEqual([
      [8, 10, 'section', 'Sales analysis', ''],
      [20, 27, 'function', 'load_sales', ''],
      [30, 40, 'class', 'TrendModel', ''],
      [68, 71, 'module', null, ''],
      [79, 80, 'window', null, ''],
    ]);
    const [heading, loadSales, trendModel, script, raw] = analysis.chunks as [Chunk, Chunk, Chunk, Chunk, Chunk];
    expect(heading.content).toBe('# Sales analysis\n\nLoad the monthly sales, then fit a linear trend.');
    expect(heading.header).toBe(`${PATH}\n# Sales analysis`);
    expect(loadSales.content).toBe(
      'import json\nfrom pathlib import Path\n\n\ndef load_sales(path):\n' +
        '    """Read the monthly sales records of a JSON file, dropping refunds."""\n' +
        '    rows = json.loads(Path(path).read_text())\n' +
        '    return [row for row in rows if row["amount"] > 0]',
    );
    expect(loadSales.header).toBe(`${PATH}\ndef load_sales(path):`);
    expect(trendModel.content.split('\n')).toHaveLength(11);
    expect(trendModel.content).toMatch(/^class TrendModel:\n {4}"""Least-squares line through \(month, amount\) points\."""\n\n {4}def fit\(self, months, amounts\):\n/);
    expect(trendModel.content).toMatch(/\n {8}return self$/);
    expect(script.content).toBe(
      'sales = load_sales("sales.json")\n' +
        'model = TrendModel().fit([r["month"] for r in sales], [r["amount"] for r in sales])\n' +
        'print(f"slope per month: {model.slope:.2f}")\n' +
        'plot_trend(sales, model)',
    );
    expect(raw.content).toBe('Exported for the quarterly report.\nDo not edit by hand.');
    expect(analysis.chunks.every((chunk) => chunk.language === 'jupyter' && chunk.path === PATH)).toBe(true);
  });

  it('puts each chunk at the file lines of its first and last source line', () => {
    const lines = SALES.split('\n');
    /** The decoded JSON string of a `source` array line such as `    "x = 1\n",`. */
    const decoded = (line: number): string => JSON.parse((lines[line - 1] ?? '').trim().replace(/,$/, '')) as string;
    for (const chunk of chunker.chunk(PATH, SALES)) {
      const content = chunk.content.split('\n');
      expect(decoded(chunk.startLine)).toBe(`${content[0]}\n`);
      expect(decoded(chunk.endLine).replace(/\n$/, '')).toBe(content.at(-1));
    }
  });

  it('indexes no output, attachment or metadata', () => {
    const indexed = chunker.chunk(PATH, SALES).map((chunk) => `${chunk.header}\n${chunk.content}`).join('\n');
    // The stream output, the image, the text/plain of the figure, the kernelspec and the JSON itself.
    for (const text of ['12.50', 'iVBORw0KGgo', 'Figure size', 'ipykernel', 'display_data', 'execution_count', 'cell_type', '\\n', '\\"']) {
      expect(indexed, text).not.toContain(text);
    }
  });

  it('puts the symbols of code cells in the symbol table with their .ipynb lines', () => {
    const symbols = chunker.analyse(PATH, SALES).symbols;
    const definitions = symbols.filter((s) => s.role === 'definition').map((s) => `${s.kind} ${s.name} ${s.startLine}-${s.endLine} ${s.enclosing}`);
    expect(definitions).toEqual([
      'function load_sales 24-27 null',
      'class TrendModel 30-40 null',
      'method fit 33-40 TrendModel',
      'variable sales 68-68 null',
      'variable model 69-69 null',
    ]);
    const calls = symbols.filter((s) => s.role === 'reference').map((s) => `${s.kind} ${s.name} ${s.startLine} ${s.enclosing}`);
    expect(calls).toEqual([
      'import json 20 null',
      'import Path 21 null',
      'call loads 26 load_sales',
      'call Path 26 load_sales',
      'call read_text 26 load_sales',
      'call len 34 TrendModel.fit',
      'call sum 35 TrendModel.fit',
      'call sum 36 TrendModel.fit',
      'call sum 37 TrendModel.fit',
      'call sum 38 TrendModel.fit',
      'call zip 38 TrendModel.fit',
      'call load_sales 68 null',
      'call TrendModel 69 null',
      'call fit 69 null',
      'call print 70 null',
      'call plot_trend 71 null',
    ]);
  });

  it('reads a source written as one string: every chunk of that cell lies on its one line', () => {
    const text = withStringSources(SALES, 1);
    const lines = text.split('\n');
    const lineOf = (needle: string): number => lines.findIndex((line) => line.includes(needle)) + 1;
    const [markdown, definitions, script, raw] = [lineOf('"# Sales analysis'), lineOf('"import json'), lineOf('"sales = load_sales'), lineOf('"Exported for')];
    expect([markdown, definitions, script, raw]).toEqual([7, 15, 41, 47]);
    const analysis = chunker.analyse(PATH, text);
    expect(rows(analysis.chunks)).toEqual([
      [markdown, markdown, 'section', 'Sales analysis', ''],
      [definitions, definitions, 'function', 'load_sales', ''],
      [definitions, definitions, 'class', 'TrendModel', ''],
      [script, script, 'module', null, ''],
      [raw, raw, 'window', null, ''],
    ]);
    // Same decoded text as from the source arrays.
    expect(analysis.chunks.map((chunk) => chunk.content)).toEqual(chunker.chunk(PATH, SALES).map((chunk) => chunk.content));
    const fit = analysis.symbols.find((s) => s.name === 'fit' && s.role === 'definition');
    expect(fit).toMatchObject({ startLine: definitions, endLine: definitions, enclosing: 'TrendModel' });
  });

  it('keeps one of two identical chunks on one line (a notebook written without indentation)', () => {
    const nb = JSON.parse(SALES) as { cells: unknown[] };
    nb.cells.push({ cell_type: 'markdown', metadata: {}, source: ['# Notes'] }, { cell_type: 'code', metadata: {}, outputs: [], source: ['df.head()'] });
    nb.cells.push({ cell_type: 'markdown', metadata: {}, source: ['# Notes'] }, { cell_type: 'code', metadata: {}, outputs: [], source: ['df.head()'] });
    const chunks = chunker.chunk(PATH, JSON.stringify(nb));
    expect(chunks.every((chunk) => chunk.startLine === 1 && chunk.endLine === 1)).toBe(true);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(chunks.length);
    expect(chunks.map((chunk) => chunk.content).slice(-2)).toEqual(['# Notes', 'df.head()']);
    expect(chunks).toHaveLength(7);
  });

  it('lets small neighbouring code cells share a chunk, but not across a long output', () => {
    const cell = (source: string, printed: number): object => ({
      cell_type: 'code',
      execution_count: 1,
      metadata: {},
      outputs: printed === 0 ? [] : [{ name: 'stdout', output_type: 'stream', text: Array.from({ length: printed }, (_, i) => `row ${i}\n`) }],
      source: [source],
    });
    const text = (printed: number): string =>
      `${JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [cell('df = load()', 0), cell('df.describe()', printed)] }, null, 1)}\n`;
    // A cell's outputs come before its source (Jupyter sorts the keys; so does this order). The second
    // cell's 5 printed rows put its source 21 rows after the first's; 60 rows, 76: over MAX_CELL_GAP_ROWS.
    expect(rows(chunker.chunk(PATH, text(5)))).toEqual([[12, 33, 'module', null, '']]);
    expect(chunker.chunk(PATH, text(5))[0]?.content).toBe('df = load()\n\ndf.describe()');
    expect(rows(chunker.chunk(PATH, text(60)))).toEqual([
      [12, 12, 'module', null, ''],
      [88, 88, 'module', null, ''],
    ]);
  });

  it('plans a cell that does not parse, or opens with a cell magic, on its own: its error hides no other cell\'s definitions', () => {
    const code = (...lines: string[]): object => ({ cell_type: 'code', execution_count: 1, metadata: {}, outputs: [], source: lines.map((line, i) => (i < lines.length - 1 ? `${line}\n` : line)) });
    const notebook = (cells: object[]): string =>
      `${JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: { kernelspec: { language: 'python', name: 'python3' } }, cells }, null, 1)}\n`;
    const definitions = (text: string): [string, string][] =>
      chunker.analyse(PATH, text).symbols.filter((symbol) => symbol.role === 'definition').map((symbol) => [symbol.name, symbol.kind]);
    // Jupyter compiles each cell alone: the unclosed bracket is a SyntaxError of its cell only.
    const unclosed = notebook([code('def alpha():', '    return 1'), code('x = compute(1,', '    [2, 3'), code('def delta():', '    return 4')]);
    expect(definitions(unclosed)).toEqual([['alpha', 'function'], ['delta', 'function']]);
    expect(chunker.analyse(PATH, unclosed).chunks.map((chunk) => chunk.symbol)).toEqual(['alpha', null, 'delta']);
    // Shell escapes and line magics are no Python either.
    const magics = notebook([code('!pip install requests', '%matplotlib inline', 'def beta(x):', '    return x'), code('class Gamma:', '    pass')]);
    expect(definitions(magics)).toEqual([['beta', 'function'], ['Gamma', 'class']]);
    // A cell magic: the body in the language it names, the kernel's (%%time), the file's (%%writefile).
    const cellMagics = notebook([
      code('%%bash', 'deploy() {', '  echo "it\'s done"', '}'),
      code('%%writefile src/util.py', 'def helper():', '    return 2'),
      code('%%time', 'def timed():', '    return 3'),
      code('%%html', '<div class="x">', '<p>unclosed'),
      code('def after():', '    return 5'),
    ]);
    expect(definitions(cellMagics)).toEqual([['deploy', 'function'], ['helper', 'function'], ['timed', 'function'], ['after', 'function']]);
    expect(chunker.analyse(PATH, cellMagics).chunks.map((chunk) => chunk.content.split('\n')[0])).toEqual(['%%bash', '%%writefile src/util.py', '%%time', '%%html', 'def after():']);
    // Cells that parse still share a chunk.
    const clean = notebook([code('import os'), code('def epsilon():', '    return os.sep')]);
    expect(chunker.analyse(PATH, clean).chunks.map((chunk) => chunk.content)).toEqual(['import os\n\ndef epsilon():\n    return os.sep']);
  });

  it('does not let two code cells share a chunk across an image output, one row of base64 however long', () => {
    const image = 'iVBORw0KGgo'.repeat(2000);
    const cell = (source: string, png: boolean): object => ({
      cell_type: 'code',
      execution_count: 1,
      metadata: {},
      outputs: png ? [{ data: { 'image/png': image, 'text/plain': ['<Figure>'] }, metadata: {}, output_type: 'display_data' }] : [],
      source: [source],
    });
    const text = (png: boolean): string =>
      `${JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [cell('df = load()', false), cell('plot(df)', png)] }, null, 1)}\n`;
    expect(rows(chunker.chunk(PATH, text(false)))).toEqual([[12, 21, 'module', null, '']]);
    // The image is within MAX_CELL_GAP_ROWS rows of both sources but 22,000 characters long.
    const split = chunker.chunk(PATH, text(true));
    expect(rows(split)).toEqual([
      [12, 12, 'module', null, ''],
      [32, 32, 'module', null, ''],
    ]);
    expect(split.map((chunk) => chunk.content)).toEqual(['df = load()', 'plot(df)']);
  });

  it('falls back to line windows over the JSON, as for any text file, and says why', () => {
    const malformed = SALES.split('\n').slice(0, 40).join('\n');
    const broken = chunker.analyse(PATH, malformed);
    expect(broken).toMatchObject({ language: 'jupyter', fallback: 'invalid-notebook', symbols: [] });
    // Windows of the file's own lines, covering every line of this JSON (none is blank), as a `.txt` file's.
    const lines = malformed.split('\n');
    expect(broken.chunks.every((c) => c.kind === 'window' && c.content === lines.slice(c.startLine - 1, c.endLine).join('\n'))).toBe(true);
    expect(broken.chunks.map((c) => c.content).join('\n')).toBe(malformed);
    const v3 = SALES.replace('"nbformat": 4,', '"nbformat": 3,');
    expect(chunker.analyse(PATH, v3)).toMatchObject({ fallback: 'notebook-version', symbols: [] });
    expect(chunker.analyse(PATH, '')).toMatchObject({ fallback: 'invalid-notebook', chunks: [] });
  });

  it('plans code cells in the kernel language: an R notebook is chunked by windows and says no-grammar', () => {
    const r = SALES.replace('"language": "python"', '"language": "R"');
    const analysis = chunker.analyse(PATH, r);
    expect(analysis.fallback).toBe('no-grammar');
    expect(analysis.symbols).toEqual([]);
    // The two code cells are one text, joined by a blank line, which the windows prefer as a cut.
    expect(rows(analysis.chunks)).toEqual([
      [8, 10, 'section', 'Sales analysis', ''],
      [20, 40, 'window', null, ''],
      [68, 71, 'window', null, ''],
      [79, 80, 'window', null, ''],
    ]);
    expect(analysis.chunks[2]?.content).toBe(chunker.chunk(PATH, SALES)[3]?.content);
  });

  it('keeps ranges in the file, in order, and chunks within the limit at every size', async () => {
    const lines = SALES.split('\n').length;
    for (const maxTokens of [16, 64, 256]) {
      const sized = await createChunker({ maxTokens });
      const chunks = sized.chunk(PATH, SALES);
      const decoded = chunks.map((chunk) => chunk.content).join('\n');
      chunks.forEach((chunk, i) => {
        expect(chunk.startLine >= 1 && chunk.startLine <= chunk.endLine && chunk.endLine <= lines).toBe(true);
        if (i > 0) expect((chunks[i - 1] as Chunk).endLine).toBeLessThan(chunk.startLine);
        if (chunk.content.includes('\n')) expect(estimateTokens(`${chunk.header}\n${chunk.content}`) + BERT_SPECIAL_TOKENS).toBeLessThanOrEqual(maxTokens);
      });
      // Every source line is in some chunk.
      for (const line of ['# Sales analysis', 'from pathlib import Path', '        return self', 'plot_trend(sales, model)', 'Do not edit by hand.']) {
        expect(decoded, `${maxTokens}: ${line}`).toContain(line);
      }
    }
  });

  it('never throws on odd notebooks, and reads a large one quickly', () => {
    const odd = [
      '{"nbformat": 4, "cells": []}',
      '{"nbformat": 4, "cells": [{}]}',
      '{"nbformat": 4, "cells": [{"cell_type": "code", "source": "\\n\\n\\n"}]}',
      '{"nbformat": 4, "metadata": {"kernelspec": {"language": "jupyter"}}, "cells": [{"cell_type": "code", "source": "x = 1"}]}',
      '{"nbformat": 4, "metadata": {"kernelspec": {"language": "markdown"}}, "cells": [{"cell_type": "code", "source": "# x"}]}',
      `{"nbformat": 4, "cells": [{"cell_type": "code", "source": ${JSON.stringify(`x = "${'A'.repeat(100_000)}"`)}}]}`,
      '{"nbformat": 4, "cells": [{"cell_type": "code", "source": ["def f(\\n"]}, {"cell_type": "code", "source": ["    x):\\n", "  return )))"]}]}',
    ];
    for (const text of odd) expect(() => chunker.analyse(PATH, text), text.slice(0, 80)).not.toThrow();
    expect(chunker.chunk(PATH, odd[0] as string)).toEqual([]);
    expect(chunker.analyse(PATH, odd[3] as string).chunks.map((c) => c.content)).toEqual(['x = 1']);

    const cells = Array.from({ length: 3000 }, (_, i) =>
      i % 3 === 0
        ? { cell_type: 'markdown', metadata: {}, source: [`## Step ${i}\n`, `Explain step ${i}.`] }
        : { cell_type: 'code', metadata: {}, outputs: [{ output_type: 'stream', name: 'stdout', text: ['x\n'] }], source: [`def step_${i}(x):\n`, `    return x + ${i}`] },
    );
    const large = JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells }, null, 1);
    const started = performance.now();
    const analysis = chunker.analyse(PATH, large);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(analysis.symbols.filter((s) => s.role === 'definition')).toHaveLength(2000);
    const step1 = analysis.symbols.find((s) => s.name === 'step_1');
    expect(large.split('\n')[(step1?.startLine ?? 0) - 1]?.trim()).toBe('"def step_1(x):\\n",');
  });
});
