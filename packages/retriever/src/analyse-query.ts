import { sideFileKind } from './side-files.js';
import { isTestPath } from './test-paths.js';

/**
 * What a query asks for, as far as cheap rules can tell: `code` or `docs` from cue words and file
 * kinds; without cues, `named` when the query names an identifier and `neutral` when it is plain prose.
 */
export type QueryIntent = 'code' | 'docs' | 'named' | 'neutral';

/** The result of {@link analyseQuery}. */
export interface QueryAnalysis {
  /**
   * Code identifiers named in the query, as written (`parseHeaders`, `MAX_SIZE`, `#shouldProxy`,
   * `pino.destination` gives `pino.destination` and its parts). Plain English words are never
   * identifiers, even when they happen to be symbol names too.
   */
  identifiers: string[];
  /**
   * Words that may name a symbol though no rule can tell them from English: the query's one word when
   * it is a single word (`Client`, `freeze`), a word in backticks (`` `freeze` ``), and a capitalised
   * word after the first (`how does Client retry`). The retriever takes those the symbol table defines
   * as identifiers (see {@link confirmNames}); the others stay words.
   */
  candidateNames: string[];
  /** Which of {@link candidateNames} are only capitalised words in prose (weaker evidence: `Error`, `Data`). */
  capitalisedOnly: string[];
  /** File references (`retry-handler.js`, `lib/core/util.js`), without a leading `./`. */
  fileRefs: string[];
  intent: QueryIntent;
  /**
   * Whether the query asks about tests: a test cue word (`test`, `tests`, `testing`, `spec`, `mock`,
   * `stub`, `fixture`, `assert`, `e2e`, `coverage`) or a named file that is a test file
   * ({@link isTestPath}). When true, the test-file prior does not apply.
   */
  asksForTests: boolean;
  /**
   * Whether the query asks about benchmarks or performance: a cue word (`bench`, `benchmark`,
   * `benchmarks`, `benchmarking`, `performance`, `perf`) or a named benchmark file ({@link sideFileKind}).
   * When true, the side-file prior leaves benchmark files as they are.
   */
  asksForBenchmarks: boolean;
  /**
   * Whether the query asks about releases or changes between versions: a cue word (`changelog`,
   * `release notes`, `release`, `released`, `changed`, `version`, `deprecated`, `breaking`, `added in`,
   * `removed in`, `upgrade`, `migrate`, ...), a version number (`2.0`, `v5.1.3`) or a named release-notes
   * file. When true, the side-file prior leaves release notes as they are.
   */
  asksForReleaseNotes: boolean;
}

// A token that can only be code: camelCase or PascalCase with an inner capital (`parseHeaders`,
// `RetryHandler`, `kClients`), snake or SCREAMING case (`max_size`, `UND_ERR_SOCKET`), a `$` or a
// leading `#` (private members), or a dotted member path (`pino.destination`, `interceptors.dump`).
const WORD = /[#$A-Za-z_][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?/g;
const INNER_CAPITAL = /[a-z0-9][A-Z]|[A-Z]{2,}[a-z]/;
const FILE_REF = /(?:^|[\s`'"(])((?:\.{0,2}\/)?(?:[\w.@-]+\/)*[\w@-][\w.@-]*\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|rb|php|cs|cpp|cc|c|h|hpp|swift|scala|lua|sh|md|mdx|rst|json|ya?ml|toml))(?=$|[\s`'",.;:)?!])/g;

// Cue words for intent. Documentation: the user wants to be told how to use or set something up, or
// what changed between releases (release notes are prose).
// Code: the user wants the implementation. Both lists are short on purpose (precision over recall).
const DOCS_CUES =
  /\b(how (?:do|can|should) (?:i|we|you)|how to|docs?|documentation|readme|guide|tutorial|examples?|usage|install(?:ation)?|set ?up|best practices?|migrat(?:e|ing|ion)|upgrad(?:e|ing)|change ?logs?|release notes?|what(?:'s| has| have)? changed)\b/i;
const TEST_CUES = /\b(tests?|testing|tested|specs?|mocks?|mocking|mocked|stubs?|stubbing|fixtures?|asserts?|assertions?|e2e|coverage)\b/i;
const BENCHMARK_CUES = /\b(bench(?:mark)?(?:s|ing|ed)?|perf|performance)\b/i;
const RELEASE_CUES =
  /\b(change ?logs?|release notes?|releases?|released|changed|changes (?:in|since|between)|versions?|deprecat\w*|breaking|added in|removed in|introduced in|upgrad\w*|migrat\w*|v?\d+\.\d+(?:\.\d+)?)\b/i;
const CODE_CUES = /\b(implementation|implemented|implements?|source code|code (?:that|which|for)|where (?:is|are|does|do)|which (?:function|method|class)|function|method|internals?|algorithm)\b/i;

function isIdentifier(token: string): boolean {
  const bare = token.replace(/\(\)$/, '');
  if (bare.startsWith('#') || bare.includes('$')) return bare.length > 1;
  if (bare.includes('.')) return bare.split('.').every((p) => p.length > 0);
  if (/[A-Za-z0-9]_[A-Za-z0-9]/.test(bare) || /^_[A-Za-z]/.test(bare)) return true;
  return INNER_CAPITAL.test(bare);
}

const BARE_WORD = /^[A-Za-z_$][\w$]*$/;
const BACKTICKED = /`([A-Za-z_$][\w$]*)`/g;
const CAPITALISED = /^[A-Z][a-z0-9]+$/;

/** See {@link QueryAnalysis.candidateNames}: the single word and backticked words (`strong`), capitalised words after the first (`capitalised`, when not strong too). */
function nameCandidates(query: string): { strong: string[]; capitalised: string[] } {
  const words = query.trim().split(/\s+/).filter((w) => w !== '');
  const strong = new Set<string>();
  if (words.length === 1 && BARE_WORD.test(words[0]!.replace(/\(\)$/, ''))) strong.add(words[0]!.replace(/\(\)$/, ''));
  for (const m of query.matchAll(BACKTICKED)) strong.add(m[1]!);
  const capitalised = new Set<string>();
  for (const word of words.slice(1)) {
    const bare = word.replace(/^[("'`]+|[)"'`.,;:?!]+$/g, '');
    if (CAPITALISED.test(bare) && !strong.has(bare)) capitalised.add(bare);
  }
  return { strong: [...strong], capitalised: [...capitalised] };
}

/**
 * `analysis` with the {@link QueryAnalysis.candidateNames} that `isDefined` confirms (the symbol
 * table holds a definition of that exact name; `capitalisedOnly` says the evidence is a capitalised
 * word in prose, for which the caller asks more) added to its identifiers, and its intent `named`
 * when it was `neutral` and one was confirmed. `analysis` itself when none is.
 */
export async function confirmNames(
  analysis: QueryAnalysis,
  isDefined: (name: string, capitalisedOnly: boolean) => Promise<boolean>,
): Promise<QueryAnalysis> {
  const confirmed: string[] = [];
  for (const name of analysis.candidateNames) if (await isDefined(name, analysis.capitalisedOnly.includes(name))) confirmed.push(name);
  if (confirmed.length === 0) return analysis;
  return {
    ...analysis,
    identifiers: [...analysis.identifiers, ...confirmed],
    candidateNames: analysis.candidateNames.filter((name) => !confirmed.includes(name)),
    capitalisedOnly: analysis.capitalisedOnly.filter((name) => !confirmed.includes(name)),
    intent: analysis.intent === 'neutral' ? 'named' : analysis.intent,
  };
}

/**
 * Reads identifiers, file references and intent from a query with fixed rules (no model): the
 * "query understanding" step of DESIGN.md's query path. Intent is `docs` when the query uses a
 * how-to/documentation cue or names a Markdown file, `code` when it uses an implementation cue or
 * names a code file; otherwise `named` when it names an identifier and `neutral` when it does not.
 * Naming an identifier says nothing about code vs docs (reference docs name identifiers as often as
 * code does: `interceptors.dump maxSize default` wants the docs), but it does say the query is
 * written in the code's own vocabulary, which is what {@link INTENT_FACTORS} needs to know.
 */
export function analyseQuery(query: string): QueryAnalysis {
  const fileRefs: string[] = [];
  for (const m of query.matchAll(FILE_REF)) {
    const ref = m[1]!.replace(/^\.\//, '');
    if (!fileRefs.includes(ref)) fileRefs.push(ref);
  }
  const withoutFiles = fileRefs.reduce((q, ref) => q.split(ref).join(' '), query);
  const identifiers: string[] = [];
  for (const m of withoutFiles.matchAll(WORD)) {
    const token = m[0].replace(/\(\)$/, '');
    if (!isIdentifier(token)) continue;
    const forms = token.includes('.') ? [token, ...token.split('.').filter(isIdentifier)] : [token];
    for (const f of forms) if (!identifiers.includes(f)) identifiers.push(f);
  }
  const candidates = nameCandidates(withoutFiles);
  const candidateNames = [...candidates.strong, ...candidates.capitalised].filter((word) => !identifiers.includes(word));
  const capitalisedOnly = candidates.capitalised.filter((word) => candidateNames.includes(word));
  const docsFile = fileRefs.some((f) => /\.(md|mdx|rst)$/i.test(f));
  const codeFile = fileRefs.some((f) => !/\.(md|mdx|rst|json|ya?ml|toml)$/i.test(f));
  let intent: QueryIntent = identifiers.length > 0 ? 'named' : 'neutral';
  if (DOCS_CUES.test(query) || docsFile) intent = 'docs';
  else if (CODE_CUES.test(query) || codeFile) intent = 'code';
  const asksForTests = TEST_CUES.test(query) || fileRefs.some(isTestPath);
  const asksForBenchmarks = BENCHMARK_CUES.test(query) || fileRefs.some((f) => sideFileKind(f) === 'benchmark');
  const asksForReleaseNotes = RELEASE_CUES.test(query) || fileRefs.some((f) => sideFileKind(f) === 'release-notes');
  return { identifiers, candidateNames, capitalisedOnly, fileRefs, intent, asksForTests, asksForBenchmarks, asksForReleaseNotes };
}
