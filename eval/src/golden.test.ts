import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readGolden } from './golden.js';

const question = (id: string) => ({ id, type: 'semantic', answer: 'code', query: 'q', accepted: [{ path: 'a.js', startLine: 1, endLine: 2 }] });

describe('readGolden', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const goldenDir = (sets: Record<string, string[]>): string => {
    const dir = mkdtempSync(path.join(tmpdir(), 'monorag-golden-'));
    dirs.push(dir);
    for (const [corpus, ids] of Object.entries(sets)) writeFileSync(path.join(dir, `${corpus}.json`), JSON.stringify({ corpus, questions: ids.map(question) }));
    return dir;
  };

  it('reads every set in file order, with its corpus and docParaphrase defaulting to false', () => {
    const read = readGolden(goldenDir({ axios: ['a-s01'], attrs: ['at-s01', 'at-s02'] }));
    expect(read.map((q) => [q.id, q.corpus, q.docParaphrase])).toEqual([
      ['at-s01', 'attrs', false],
      ['at-s02', 'attrs', false],
      ['a-s01', 'axios', false],
    ]);
  });

  it('refuses two questions with one id, naming both files', () => {
    const dir = goldenDir({ axios: ['a-s04'], attrs: ['a-s04'] });
    expect(() => readGolden(dir)).toThrow('eval/golden: question id "a-s04" is used in attrs.json and axios.json; give each question its own id (e.g. a corpus prefix).');
  });

  it('holds no duplicate id in the committed sets', () => {
    const ids = readGolden().map((q) => q.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
