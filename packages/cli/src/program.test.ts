import { RANKING_STAGES } from '@monorag/retriever';
import { describe, expect, it } from 'vitest';
import { createProgram } from './program.js';

/** The help text of `monorag <name>`, its line wrapping undone. */
function helpOf(name: string): string {
  const command = createProgram().commands.find((c) => c.name() === name);
  if (!command) throw new Error(`no command ${name}`);
  return command.helpInformation().replace(/\s+/g, ' ');
}

describe('monorag search --help', () => {
  it('lists every ranking stage of --explain, from the retriever', () => {
    const help = helpOf('search');
    expect(help).toContain("--explain show each result's rank in every ranking stage (dense, bm25, symbol, rrf, file, intent, tests, side, cap)");
    for (const stage of RANKING_STAGES) expect(help).toMatch(new RegExp(`\\(([a-z0-9]+, )*${stage}(, [a-z0-9]+)*\\)`));
  });
});
