import { utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SECRET_SCANNER_ID } from '@monorag/secrets';
import { indexProject } from '../index-project.js';
import { SECRET_SCANNER_META } from '../redact-file-text.js';
import { openTestIndex } from '../test-index.js';
import { indexFile } from './index-file.js';
import { planFileJobs } from './plan-file-jobs.js';
import { writeTokenProject } from './testing/token-project.js';

const BOTH = ['src/deploy.ts', 'src/plain.ts'];

describe('planFileJobs and the secret scanner the index was written with', () => {
  it('plans no unchanged file while the store meta names the scanner the plan uses', async () => {
    const base = await openTestIndex(writeTokenProject().root);
    await indexProject(base);
    expect(await base.store.getMeta(SECRET_SCANNER_META)).toBe(SECRET_SCANNER_ID);
    expect(await planFileJobs(base)).toEqual({ paths: [], walked: 2, unchanged: 2, rescan: 0, leftOut: 0, scanner: SECRET_SCANNER_ID });
    await base.store.close();
  });

  it('plans every unchanged text file again, counted in rescan, when the index was written with redaction off; off again plans none', async () => {
    const base = await openTestIndex(writeTokenProject().root);
    await indexProject({ ...base, redactSecrets: false });
    expect(await base.store.getMeta(SECRET_SCANNER_META)).toBe('off');
    expect(await planFileJobs(base)).toEqual({ paths: BOTH, walked: 2, unchanged: 0, rescan: 2, leftOut: 0, scanner: SECRET_SCANNER_ID });
    expect(await planFileJobs({ ...base, redactSecrets: false })).toEqual({ paths: [], walked: 2, unchanged: 2, rescan: 0, leftOut: 0, scanner: 'off' });
    await base.store.close();
  });

  it('an older scanner id counts as another; a changed file is planned as such and not counted in rescan', async () => {
    const base = await openTestIndex(writeTokenProject().root);
    await indexProject(base);
    await base.store.setMeta(SECRET_SCANNER_META, 'secretlint-12.0.0/recommend/1');
    writeFileSync(path.join(base.root, 'src', 'plain.ts'), 'export const answer = 42;\n');
    expect(await planFileJobs(base)).toEqual({ paths: BOTH, walked: 2, unchanged: 0, rescan: 1, leftOut: 0, scanner: SECRET_SCANNER_ID });
    await base.store.close();
  });

  it('no recorded scanner (an index the queue wrote before it recorded one) counts as another; an empty manifest plans no rescan', async () => {
    const base = await openTestIndex(writeTokenProject().root);
    expect(await planFileJobs(base)).toEqual({ paths: BOTH, walked: 2, unchanged: 0, rescan: 0, leftOut: 0, scanner: SECRET_SCANNER_ID });
    for (const file of BOTH) await indexFile({ ...base, path: file });
    expect(await base.store.getMeta(SECRET_SCANNER_META)).toBeUndefined();
    expect(await planFileJobs(base)).toEqual({ paths: BOTH, walked: 2, unchanged: 0, rescan: 2, leftOut: 0, scanner: SECRET_SCANNER_ID });
    await base.store.close();
  });

  it('a plan limited to paths re-scans only the unchanged files under them', async () => {
    const base = await openTestIndex(writeTokenProject().root);
    await indexProject({ ...base, redactSecrets: false });
    expect(await planFileJobs({ ...base, paths: ['src/deploy.ts'] })).toEqual({
      paths: ['src/deploy.ts'], walked: 1, unchanged: 0, rescan: 1, leftOut: 0, scanner: SECRET_SCANNER_ID,
    });
    await base.store.close();
  });
});

describe('planFileJobs and files saved without a change', () => {
  it('moves the read time of an unchanged file saved since its read (touch) to the plan\'s read, and leaves the others alone', async () => {
    const base = await openTestIndex(writeTokenProject().root);
    await indexProject(base);
    const before = new Map((await base.store.listFiles()).map((f) => [f.path, f.indexedAt]));
    await new Promise((resolve) => setTimeout(resolve, 30));
    const touched = path.join(base.root, 'src', 'plain.ts');
    const later = new Date(Date.now());
    utimesSync(touched, later, later);
    const planStarted = Date.now();
    expect(await planFileJobs(base)).toEqual({ paths: [], walked: 2, unchanged: 2, rescan: 0, leftOut: 0, scanner: SECRET_SCANNER_ID });
    const after = new Map((await base.store.listFiles()).map((f) => [f.path, f.indexedAt]));
    expect(after.get('src/plain.ts')).toBeGreaterThanOrEqual(planStarted);
    expect(after.get('src/deploy.ts')).toBe(before.get('src/deploy.ts'));
    await base.store.close();
  });

  it('plans no job for a new file a worker would leave out by its text (a private key, generated code), and one for such a file the index holds', async () => {
    const base = await openTestIndex(writeTokenProject().root);
    await indexProject(base);
    const key = [`-----BEGIN ${'OPENSSH'} PRIVATE KEY-----`, 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW', '-----END OPENSSH PRIVATE KEY-----', ''].join('\n');
    writeFileSync(path.join(base.root, 'src', 'key.txt'), key);
    writeFileSync(path.join(base.root, 'src', 'gen.ts'), '// Code generated by protoc. DO NOT EDIT.\nexport const x = 1;\n');
    expect(await planFileJobs(base)).toEqual({ paths: [], walked: 4, unchanged: 2, rescan: 0, leftOut: 2, scanner: SECRET_SCANNER_ID });
    // A file the index holds that now holds a key: its job removes it.
    writeFileSync(path.join(base.root, 'src', 'plain.ts'), key);
    expect((await planFileJobs(base)).paths).toEqual(['src/plain.ts']);
    await base.store.close();
  });
});
