import type { RankingOptions, SearchMode } from '@monorag/retriever';
import type { ChunkingVariant } from './index-all.js';

/** One row of the ablation table: a chunking variant, a retrieval mode, ranking steps and pool size. */
export interface Ablation {
  id: string;
  /** What the row changes, for the table. */
  label: string;
  chunking: ChunkingVariant;
  mode: SearchMode;
  ranking: RankingOptions;
  /** Candidates from each retriever before fusion. */
  candidatePool: number;
}

/** The product's ranking steps (DEFAULT_RANKING): file evidence is off, see eval/RESULTS.md. */
const ON: RankingOptions = { symbolMatch: true, queryIntent: true, pathScope: true, fileEvidence: false, completeRanks: true, testPrior: true, sideFilePrior: true, demotionCap: true, queryAdapter: true };
const OFF: RankingOptions = { symbolMatch: false, queryIntent: false, pathScope: false, fileEvidence: false, completeRanks: false, testPrior: false, sideFilePrior: false, demotionCap: false, queryAdapter: false };

/** The product configuration: syntax-tree chunks, hybrid retrieval, every ranking step, pool 50. */
export const MAIN_ABLATION = 'hybrid';

/** Every row of one eval run, the product configuration first. */
export const ABLATIONS: Ablation[] = [
  { id: 'hybrid', label: 'syntax chunks, hybrid, all priors (product)', chunking: 'syntax', mode: 'hybrid', ranking: ON, candidatePool: 50 },
  { id: 'hybrid-pools', label: 'syntax, hybrid, all priors, RRF over the truncated pools (no rank completion)', chunking: 'syntax', mode: 'hybrid', ranking: { ...ON, completeRanks: false }, candidatePool: 50 },
  { id: 'hybrid-no-priors', label: 'syntax, hybrid, plain RRF (no priors)', chunking: 'syntax', mode: 'hybrid', ranking: OFF, candidatePool: 50 },
  { id: 'hybrid-no-symbol', label: 'syntax, hybrid, without exact-symbol list', chunking: 'syntax', mode: 'hybrid', ranking: { ...ON, symbolMatch: false }, candidatePool: 50 },
  { id: 'hybrid-no-intent', label: 'syntax, hybrid, without intent prior', chunking: 'syntax', mode: 'hybrid', ranking: { ...ON, queryIntent: false }, candidatePool: 50 },
  { id: 'hybrid-no-scope', label: 'syntax, hybrid, without file scoping', chunking: 'syntax', mode: 'hybrid', ranking: { ...ON, pathScope: false }, candidatePool: 50 },
  { id: 'hybrid-no-cap', label: 'syntax, hybrid, all priors, no cap on how far they move a chunk', chunking: 'syntax', mode: 'hybrid', ranking: { ...ON, demotionCap: false }, candidatePool: 50 },
  { id: 'package-hybrid-no-cap', label: 'whole package, syntax, hybrid, all priors, no cap on how far they move a chunk', chunking: 'package', mode: 'hybrid', ranking: { ...ON, demotionCap: false }, candidatePool: 50 },
  { id: 'hybrid-no-adapter', label: 'syntax, hybrid, all priors, the model\'s own query vector (no query adapter)', chunking: 'syntax', mode: 'hybrid', ranking: { ...ON, queryAdapter: false }, candidatePool: 50 },
  { id: 'hybrid-file', label: 'syntax, hybrid, all priors plus file evidence', chunking: 'syntax', mode: 'hybrid', ranking: { ...ON, fileEvidence: true }, candidatePool: 50 },
  { id: 'dense', label: 'syntax, dense only (no priors)', chunking: 'syntax', mode: 'dense', ranking: OFF, candidatePool: 50 },
  { id: 'dense-adapter', label: 'syntax, dense only with the query adapter (no priors)', chunking: 'syntax', mode: 'dense', ranking: { ...OFF, queryAdapter: true }, candidatePool: 50 },
  { id: 'lexical', label: 'syntax, BM25 only (no priors)', chunking: 'syntax', mode: 'lexical', ranking: OFF, candidatePool: 50 },
  { id: 'lexical-priors', label: 'syntax, BM25 only, all priors', chunking: 'syntax', mode: 'lexical', ranking: ON, candidatePool: 50 },
  { id: 'hybrid-pathless', label: 'syntax, no path in the embedded header, hybrid, all priors', chunking: 'syntax-pathless', mode: 'hybrid', ranking: ON, candidatePool: 50 },
  { id: 'dense-pathless', label: 'syntax, no path in the embedded header, dense only', chunking: 'syntax-pathless', mode: 'dense', ranking: OFF, candidatePool: 50 },
  { id: 'package-hybrid', label: 'whole published package (tests, type declarations, examples...), syntax, hybrid, all priors', chunking: 'package', mode: 'hybrid', ranking: ON, candidatePool: 50 },
  { id: 'package-hybrid-no-test-prior', label: 'whole package, syntax, hybrid, all priors but the test-file prior', chunking: 'package', mode: 'hybrid', ranking: { ...ON, testPrior: false }, candidatePool: 50 },
  { id: 'package-hybrid-no-side-prior', label: 'whole package, syntax, hybrid, all priors but the side-file prior (benchmarks, release notes)', chunking: 'package', mode: 'hybrid', ranking: { ...ON, sideFilePrior: false }, candidatePool: 50 },
  { id: 'windows-hybrid', label: 'line windows, hybrid, all priors', chunking: 'windows', mode: 'hybrid', ranking: ON, candidatePool: 50 },
  { id: 'windows-hybrid-no-priors', label: 'line windows, hybrid, plain RRF', chunking: 'windows', mode: 'hybrid', ranking: OFF, candidatePool: 50 },
  { id: 'hybrid-pool10', label: 'syntax, hybrid, all priors, pool 10', chunking: 'syntax', mode: 'hybrid', ranking: ON, candidatePool: 10 },
  { id: 'hybrid-pool20', label: 'syntax, hybrid, all priors, pool 20', chunking: 'syntax', mode: 'hybrid', ranking: ON, candidatePool: 20 },
  { id: 'hybrid-pool100', label: 'syntax, hybrid, all priors, pool 100', chunking: 'syntax', mode: 'hybrid', ranking: ON, candidatePool: 100 },
  { id: 'hybrid-pool200', label: 'syntax, hybrid, all priors, pool 200', chunking: 'syntax', mode: 'hybrid', ranking: ON, candidatePool: 200 },
];
