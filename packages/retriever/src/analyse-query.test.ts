import { describe, expect, it } from 'vitest';
import { analyseQuery, confirmNames } from './analyse-query.js';

describe('analyseQuery', () => {
  it('finds camelCase, PascalCase, snake, SCREAMING, private and dotted identifiers, not English words', () => {
    const a = analyseQuery('does RetryHandler call parseHeaders() with MAX_SIZE, #onAbort and pino.destination or the retry handler');
    expect(a.identifiers).toEqual(['RetryHandler', 'parseHeaders', 'MAX_SIZE', '#onAbort', 'pino.destination']);
  });

  it('splits a dotted path into its identifier parts too', () => {
    expect(analyseQuery('interceptors.dump maxSize').identifiers).toEqual(['interceptors.dump', 'maxSize']);
    expect(analyseQuery('logger.childBindings').identifiers).toEqual(['logger.childBindings', 'childBindings']);
  });

  it('reads file references and keeps them out of the identifiers', () => {
    const a = analyseQuery('what does lib/core/util.js do with keep_alive in ./retry-handler.js?');
    expect(a.fileRefs).toEqual(['lib/core/util.js', 'retry-handler.js']);
    expect(a.identifiers).toEqual(['keep_alive']);
  });

  it('reads intent from cue words, identifiers and file kinds', () => {
    expect(analyseQuery('how do I enable debug logs').intent).toBe('docs');
    expect(analyseQuery('migrating to v8').intent).toBe('docs');
    expect(analyseQuery('see api.md for the options').intent).toBe('docs');
    // Release notes are prose: a question about what changed seeks them (a trial's `changelog` ranked its CHANGELOG.md sections 6th under the neutral lean).
    expect(['changelog', 'what changed in 2.0', "what's changed since the last release", 'release notes of 5.1', 'change the log level'].map((q) => analyseQuery(q).intent)).toEqual(['docs', 'docs', 'docs', 'docs', 'neutral']);
    expect(analyseQuery('where is the redirect limit enforced').intent).toBe('code');
    expect(analyseQuery('parseHeaders').intent).toBe('named');
    expect(analyseQuery('interceptors.dump maxSize default').intent).toBe('named');
    expect(analyseQuery('how do I call parseHeaders').intent).toBe('docs');
    expect(analyseQuery('where is parseHeaders defined').intent).toBe('code');
    expect(analyseQuery('see lib/core/util.js').intent).toBe('code');
    expect(analyseQuery('rotate log files daily').intent).toBe('neutral');
  });

  it('has no identifiers, files or cues in plain prose', () => {
    expect(analyseQuery('drop resolved addresses whose time to live has expired')).toEqual({ identifiers: [], candidateNames: [], capitalisedOnly: [], fileRefs: [], intent: 'neutral', asksForTests: false, asksForBenchmarks: false, asksForReleaseNotes: false });
  });

  it('offers words that may be names for the symbol table to confirm: a one-word query, backticked words, capitalised words after the first', () => {
    expect(analyseQuery('Client').candidateNames).toEqual(['Client']);
    expect(analyseQuery('freeze').candidateNames).toEqual(['freeze']);
    expect(analyseQuery('parseHeaders').candidateNames).toEqual([]);
    expect(analyseQuery('how does `freeze` stop the clock').candidateNames).toEqual(['freeze']);
    expect(analyseQuery('How does Client pick a Pool for an origin?')).toMatchObject({ candidateNames: ['Client', 'Pool'], capitalisedOnly: ['Client', 'Pool'] });
    expect(analyseQuery('how does `Client` pick a Pool')).toMatchObject({ candidateNames: ['Client', 'Pool'], capitalisedOnly: ['Pool'] });
    expect(analyseQuery('retry the request twice').candidateNames).toEqual([]);
  });

  it('takes the candidates the symbol table defines as identifiers, and a neutral query as named', async () => {
    const defined = new Set(['Client']);
    const confirmed = await confirmNames(analyseQuery('how does Client pick a Pool'), async (name) => defined.has(name));
    expect(confirmed).toMatchObject({ identifiers: ['Client'], candidateNames: ['Pool'], intent: 'named' });
    const cued = await confirmNames(analyseQuery('where is Client implemented'), async (name) => defined.has(name));
    expect(cued).toMatchObject({ identifiers: ['Client'], intent: 'code' });
    const none = analyseQuery('how does Agent work');
    expect(await confirmNames(none, async () => false)).toBe(none);
  });

  it('tells a question about tests by its cue words or a named test file', () => {
    const asks = (q: string) => analyseQuery(q).asksForTests;
    expect([
      asks('which tests cover the retry handler'),
      asks('mock the dispatcher'),
      asks('what does test/retry.test.js check'),
      asks('fixture for a slow server'),
      asks('how is the retry delay computed'),
      asks('latest contest attestation'),
      asks('retry-handler.js backoff'),
    ]).toEqual([true, true, true, true, false, false, false]);
  });

  it('tells a question about benchmarks or about releases by its cue words, a version number or a named file', () => {
    const benchmarks = ['benchmark the child logger', 'how fast is it: perf of serialisation', 'what does benchmarks/basic.bench.js measure', 'redact paths on a child logger'];
    expect(benchmarks.map((q) => analyseQuery(q).asksForBenchmarks)).toEqual([true, true, true, false]);
    const releases = [
      'what changed in the retry handler', 'when was maxRedirections removed in v7', 'deprecated options of the pool', 'breaking changes of 5.0',
      'migrate from request', 'CHANGELOG.md entry for the fix', 'release notes', 'which http version does the client speak',
      'retry the request twice', 'change the log level at run time', 'news feed of records',
    ];
    expect(releases.map((q) => analyseQuery(q).asksForReleaseNotes)).toEqual([true, true, true, true, true, true, true, true, false, false, false]);
  });
});
