import { isNotebookProse } from '@monorag/shared';

/**
 * Switches of the ranking steps after retrieval (DESIGN.md, query path: "priors"). Defaults in {@link DEFAULT_RANKING};
 * the eval turns each off in its ablation table (eval/RESULTS.md has the measured effect of each).
 */
export interface RankingOptions {
  /**
   * Exact-symbol matches: chunks whose symbol (or innermost scope) equals an identifier named in the
   * query form an extra ranked list in the fusion, fed by a BM25 query of the identifiers alone.
   */
  symbolMatch: boolean;
  /**
   * Query intent: documentation chunks are down-weighted for code-seeking queries and plain-prose
   * ones without cues, code chunks for documentation-seeking ones (factors in {@link INTENT_FACTORS}).
   */
  queryIntent: boolean;
  /** A file named in the query that matches exactly one indexed file scopes the search to it. */
  pathScope: boolean;
  /**
   * Each fused chunk also counts the best other chunk of its file (passage + document evidence).
   * Off by default: it no longer measurably helps (eval/RESULTS.md).
   */
  fileEvidence: boolean;
  /**
   * Hybrid fusion over complete rankings: each retriever ranks every candidate of both pools (read
   * from its top `COMPLETION_DEPTH`), instead of RRF over the two truncated pools, where a chunk one
   * retriever ranks first and the other left out of its pool counts as unranked there.
   */
  completeRanks: boolean;
  /**
   * Test files (by path, `isTestPath` in test-paths.ts) are down-weighted by {@link TEST_FACTOR} unless the query asks about
   * tests (`QueryAnalysis.asksForTests`) or the search is scoped to a test folder.
   */
  testPrior: boolean;
  /**
   * Benchmark files and release notes (`sideFileKind` in side-files.ts) are down-weighted by {@link TEST_FACTOR} like test files,
   * each unless the query asks about it (`QueryAnalysis.asksForBenchmarks`, `asksForReleaseNotes`) or the search is scoped to it.
   */
  sideFilePrior: boolean;
  /**
   * The priors together move a chunk at most {@link MAX_DEMOTION} places below its fused (RRF) rank, so
   * the chunk both retrievers rank first stays on the first page whatever its path or kind.
   */
  demotionCap: boolean;
  /**
   * The query's embedding passes through the bundled query adapter of its model before dense search
   * (query-adapter.ts: a linear map fitted on documentation/code pairs outside the eval corpora), when
   * one exists for the model; chunk vectors are untouched.
   */
  queryAdapter: boolean;
}

/** The product's ranking steps: every step that measurably helps on the eval (file evidence does not). */
export const DEFAULT_RANKING: RankingOptions = { symbolMatch: true, queryIntent: true, pathScope: true, fileEvidence: false, completeRanks: true, testPrior: true, sideFilePrior: true, demotionCap: true, queryAdapter: true };

/**
 * Most places the priors may move a chunk below its rank in the fused list: one less than the default
 * page of 10 results (`search.defaultLimit`), so no prior takes the fused first result off that page.
 * The priors multiply RRF scores, which sit close together (1/61 to 2/61 for k = 60), so a factor of
 * 0.6 alone can sink a chunk that both retrievers rank first below every chunk one retriever ranks
 * well: in a repository of a few dozen chunks, to the bottom of the list. Derived from the page size,
 * not fitted: on the eval it changes no R@5 or MRR@10 (eval/RESULTS.md).
 */
export const MAX_DEMOTION = 9;

/**
 * Multiplier of a test file's fused score when the query does not ask about tests. A test restates
 * the behaviour it checks in the same words and identifiers as the code (the function's name, its
 * arguments, the error it throws), so both retrievers rank it next to the implementation; the user
 * asking how something works wants the implementation. The value is the intent prior's for a chunk of
 * the kind the query does not seek (prose under a code-seeking query, {@link INTENT_FACTORS}): a mild
 * preference, never a filter. Fixed before the eval measured it (eval/RESULTS.md, rows `tests-*`).
 */
export const TEST_FACTOR = 0.6;

/**
 * Multipliers of the fused score by query intent and chunk kind (prose vs code). Chosen a priori as
 * "a mild preference, never a filter": a doc chunk under a code-seeking query keeps 60% of its score,
 * so it still wins when both retrievers agree on it and disagree on the code. Fixed before the eval
 * measured them; see eval/RESULTS.md.
 *
 * `neutral` (plain prose, no cue) still leans to code: a behaviour described in everyday words is
 * matched best, by dense retrieval above all, by prose that restates it in the same words, while the
 * code says it in identifiers. `named` (no cue, but an identifier) has no lean: the query already
 * speaks the code's vocabulary, the exact-symbol list brings the definition, and reference docs of
 * the name are as likely an answer (`interceptors.dump maxSize default`).
 */
export const INTENT_FACTORS = {
  code: { prose: 0.6, code: 1 },
  neutral: { prose: 0.85, code: 1 },
  named: { prose: 1, code: 1 },
  docs: { prose: 1, code: 0.85 },
} as const;

/** Language ids whose chunks are prose (documentation) rather than code. */
export const PROSE_LANGUAGES: ReadonlySet<string> = new Set(['markdown', 'mdx', 'rst', 'restructuredtext', 'asciidoc', 'text']);

/** Type declaration files: TypeScript's `.d.ts` / `.d.mts` / `.d.cts` and Python's `.pyi` stubs. */
const DECLARATION_FILE = /\.(?:d\.[cm]?ts|pyi)$/;

/**
 * Whether the intent prior weighs a chunk as reference material (the `prose` factors of
 * {@link INTENT_FACTORS}) rather than as implementation: documentation (a {@link PROSE_LANGUAGES}
 * language, or a notebook's Markdown cell, {@link isNotebookProse}) and type declaration files (`index.d.ts`, `types/*.d.ts`, `*.pyi`). A declaration file
 * restates an API's names and doc comments without its behaviour: next to a package's own JavaScript
 * or Python it answers "what does X take" like its reference page does, and outranks the code that
 * implements X for the same reasons (measured in eval/RESULTS.md, rows `package-*`).
 */
export function isReferenceChunk(chunk: { path: string; language: string; kind?: string }): boolean {
  return PROSE_LANGUAGES.has(chunk.language) || isNotebookProse(chunk) || DECLARATION_FILE.test(chunk.path);
}
