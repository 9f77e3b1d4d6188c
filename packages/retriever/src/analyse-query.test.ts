import { describe, expect, it } from 'vitest';
import { analyseQuery } from './analyse-query.js';

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
    expect(analyseQuery('where is the redirect limit enforced').intent).toBe('code');
    expect(analyseQuery('parseHeaders').intent).toBe('named');
    expect(analyseQuery('interceptors.dump maxSize default').intent).toBe('named');
    expect(analyseQuery('how do I call parseHeaders').intent).toBe('docs');
    expect(analyseQuery('where is parseHeaders defined').intent).toBe('code');
    expect(analyseQuery('see lib/core/util.js').intent).toBe('code');
    expect(analyseQuery('rotate log files daily').intent).toBe('neutral');
  });

  it('has no identifiers, files or cues in plain prose', () => {
    expect(analyseQuery('drop resolved addresses whose time to live has expired')).toEqual({ identifiers: [], fileRefs: [], intent: 'neutral', asksForTests: false });
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
});
