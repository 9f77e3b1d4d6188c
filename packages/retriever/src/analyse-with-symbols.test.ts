import type { SymbolHit } from '@monorag/shared';
import type { SymbolQuery } from '@monorag/store';
import { describe, expect, it } from 'vitest';
import { analyseWithSymbols } from './analyse-with-symbols.js';

/** A symbol table of fixed definitions, looked up by exact name as the stores do. */
function table(definitions: Pick<SymbolHit, 'name' | 'kind' | 'path'>[]) {
  return {
    findSymbols: async ({ name }: SymbolQuery): Promise<SymbolHit[]> =>
      definitions.filter((d) => d.name === name).map((d) => ({ ...d, role: 'definition', startLine: 1, endLine: 2, enclosing: null }) as SymbolHit),
  };
}

describe('analyseWithSymbols', () => {
  const store = table([
    { name: 'Client', kind: 'class', path: 'lib/client.js' },
    { name: 'Error', kind: 'class', path: 'test/helpers.test.ts' },
    { name: 'freeze', kind: 'function', path: 'tests/conftest.py' },
    { name: 'path', kind: 'variable', path: 'notebooks/load.ipynb' },
  ]);

  it('confirms a one-word query or a backticked word the table defines, in test files too', async () => {
    expect((await analyseWithSymbols(store, 'Client')).identifiers).toEqual(['Client']);
    expect((await analyseWithSymbols(store, 'freeze')).identifiers).toEqual(['freeze']);
    expect((await analyseWithSymbols(store, 'how does `Error` print')).identifiers).toEqual(['Error']);
  });

  it('takes a capitalised word in prose only when defined outside tests, and never a variable or constant', async () => {
    const prose = await analyseWithSymbols(store, 'what happens when a request times out and throws an Error');
    expect(prose).toMatchObject({ identifiers: [], intent: 'neutral' });
    expect(await analyseWithSymbols(store, 'how does Client pick a socket')).toMatchObject({ identifiers: ['Client'], intent: 'named' });
    expect((await analyseWithSymbols(store, 'path')).identifiers).toEqual([]);
  });
});
