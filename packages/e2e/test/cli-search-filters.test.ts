import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { startFakeEmbeddingHttp, type FakeEmbeddingHttp } from './fake-embedding-http.js';
import { makeFixtureRepo } from './fixture-repo.js';

interface Hit { path: string; language: string }

let embedder: FakeEmbeddingHttp;
let repo: string;
let env: Record<string, string>;

beforeAll(async () => {
  embedder = await startFakeEmbeddingHttp();
  env = { EMBEDDING_URL: embedder.url };
  repo = makeFixtureRepo();
  const indexed = await runCli(['index', repo, '--quiet'], env);
  expect(indexed.code, indexed.stderr).toBe(0);
}, 60_000);

afterAll(async () => {
  await embedder?.stop();
});

async function search(...flags: string[]): Promise<Hit[]> {
  const run = await runCli(['search', 'cache capacity sections title', '--lexical', '--json', '--project', repo, ...flags], env);
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { results: Hit[] }).results;
}

describe('monorag search --language and --path', () => {
  it('takes language aliases (ts, py) for the ids the index stores', async () => {
    const ts = await search('--language', 'ts');
    expect(ts.map((h) => h.path).sort()).toEqual(['src/lru.ts', 'src/slug.ts']);
    expect(new Set(ts.map((h) => h.language))).toEqual(new Set(['typescript']));
    expect((await search('--language', 'py')).map((h) => h.path)).toEqual(['tools/ini.py']);
  });

  it('makes an absolute --path inside the project relative to it', async () => {
    const hits = await search('--path', path.join(repo, 'tools'));
    expect(hits.map((h) => h.path)).toEqual(['tools/ini.py']);
  });

  it('rejects an unknown language, listing the valid ones, and a --path outside the project, naming it (exit 2)', async () => {
    const language = await runCli(['search', 'x', '--lexical', '--project', repo, '--language', 'klingon'], env);
    expect(language.code).toBe(2);
    expect(language.stderr).toMatch(/^monorag: --language: unknown language "klingon"\. Give one of: typescript, tsx, javascript, python, .*markdown/);
    const outside = await runCli(['search', 'x', '--lexical', '--project', repo, '--path', '/etc'], env);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain(`monorag: --path: /etc is outside the project ${repo}; give a path inside it`);
  });

  it('names --limit, and the setting that bounds it, when it asks for more results than search.maxLimit (exit 2)', async () => {
    const run = await runCli(['search', 'x', '--lexical', '--project', repo, '--limit', '51'], env);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe("monorag: --limit: at most 50 results (the project's search.maxLimit); got 51.");
    expect((await search('--limit', '50')).length).toBeGreaterThan(0);
  });
});

describe('monorag search --explain', () => {
  it("gives each result its rank in every stage; the last stage's rank is the result's own place", async () => {
    const run = await runCli(['search', 'cache capacity sections title', '--json', '--explain', '--project', repo], env);
    expect(run.code, run.stderr).toBe(0);
    const { results, mode, explain } = JSON.parse(run.stdout) as {
      mode: string;
      explain: { intent: string; factors: { prose: number; code: number }; stages: string[] };
      results: { path: string; explain: Record<string, number | null> }[];
    };
    expect(mode).toBe('hybrid');
    // No identifier and no cue word: neutral intent; no exact-symbol list; file evidence is off by
    // default; the query asks about neither tests, benchmarks nor releases, so the test-file prior and the
    // side-file prior run, then the cap on how far the priors move a result.
    expect(explain).toEqual({ intent: 'neutral', factors: { prose: 0.85, code: 1 }, stages: ['dense', 'bm25', 'rrf', 'intent', 'tests', 'side', 'cap'] });
    expect(results.length).toBeGreaterThan(1);
    results.forEach((hit, i) => {
      // Every stage is a key; the ones that did not run are null.
      expect(Object.keys(hit.explain)).toEqual(['dense', 'bm25', 'symbol', 'rrf', 'file', 'intent', 'tests', 'side', 'cap']);
      expect(hit.explain.symbol).toBeNull();
      expect(hit.explain.file).toBeNull();
      // The fixture has no test files, benchmarks or release notes: both priors keep the intent stage's order.
      expect(hit.explain.intent).toBe(i + 1);
      expect(hit.explain.tests).toBe(i + 1);
      expect(hit.explain.side).toBe(i + 1);
      expect(hit.explain.cap).toBe(i + 1);
      expect(hit.explain.rrf).toBeGreaterThanOrEqual(1);
    });
    const text = await runCli(['search', 'cache capacity sections title', '--lexical', '--explain', '--project', repo], env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.split('\n')[1]).toBe('  ranks: bm25 1, rrf 1, intent 1, tests 1, side 1, cap 1');
    expect(text.stdout.trimEnd().split('\n').slice(-4)).toEqual([
      '(intent neutral: scores of prose results x0.85, of code x1; dense and bm25 ranks are among all fused candidates)',
      '(the query does not ask about tests: scores of results from test files x0.6)',
      '(scores of results from benchmarks or release notes, unless the query asks about them, x0.6)',
      '(the priors move no result more than 9 places below its rrf rank)',
    ]);
  });

  it('says a dense fault once on stderr: as a warning without --json, as a log line with --json (a trial saw both without --json)', async () => {
    // Nothing listens on port 9 (discard): dense retrieval fails and hybrid search falls back to BM25.
    const dead = { ...env, EMBEDDING_URL: 'http://127.0.0.1:9' };
    const text = await runCli(['search', 'cache capacity', '--project', repo], dead);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stderr.split('\n').filter((line) => /dense retrieval/i.test(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^monorag: warning: Dense retrieval unavailable \(.*\); results are BM25 only\.$/);
    const json = await runCli(['search', 'cache capacity', '--json', '--project', repo], dead);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as { warnings: string[] }).warnings).toEqual([expect.stringMatching(/^Dense retrieval unavailable/)]);
    expect(json.stderr).toContain('dense retrieval failed; falling back to BM25');
  }, 60_000);
});
