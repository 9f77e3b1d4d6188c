import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@monorag/shared';
import { missingIndexError } from './missing-index-error.js';
import { createProjectContext } from './project-context.js';

describe('missingIndexError', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function tempRoot(): string {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-missing-index-')));
    dirs.push(root);
    return root;
  }

  it('says to index the project when its data directory holds no index', () => {
    const root = tempRoot();
    const error = missingIndexError(createProjectContext({ project: root, argName: '--project' }));
    expect(error.code).toBe(ErrorCode.INDEX_NOT_FOUND);
    expect(error.message).toBe(`No index for ${root} (looked for ${root}/.monorag/index.sqlite). Run \`monorag index ${root}\` first.`);
  });

  it('keeps a --data-dir flag in the command it suggests (trial: the suggested run built the index in the default place)', () => {
    const root = tempRoot();
    const dataDir = path.join(tempRoot(), 'elsewhere');
    const error = missingIndexError(createProjectContext({ project: root, argName: '--project', overrides: { dataDir } }));
    expect(error.message).toBe(`No index for ${root} (looked for ${dataDir}/index.sqlite). Run \`monorag index ${root} --data-dir ${dataDir}\` first.`);
  });

  it('gives the refusal `monorag index` would give for a data directory that is a project folder (trial: it advised that run)', () => {
    const root = tempRoot();
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src', 'a.py'), 'x = 1\n');
    const error = missingIndexError(createProjectContext({ project: root, argName: '--project', overrides: { dataDir: 'src' } }));
    expect(error.code).toBe(ErrorCode.INVALID_ARGUMENT);
    expect(error.message).toMatch(/^The data directory \(from --data-dir, MONORAG_DATA_DIR or "dataDir" in monorag.json\) .*\/src is a folder of the project/);
  });

  it('names a data directory that is a file as the fault, not the missing index (trial: MONORAG_DATA_DIR set to a file)', () => {
    const root = tempRoot();
    const dataDir = path.join(root, 'data');
    writeFileSync(dataDir, 'not a directory\n');
    const error = missingIndexError(createProjectContext({ project: root, argName: '--project', overrides: { dataDir } }));
    expect(error.code).toBe(ErrorCode.INVALID_ARGUMENT);
    expect(error.message).toBe(
      `No index for ${root} (looked for ${dataDir}/index.sqlite). The data directory ${dataDir} is a file, not a directory: ` +
        `point --data-dir (or MONORAG_DATA_DIR, or "dataDir" in monorag.json) at the directory that holds the index, or at a new one and run \`monorag index ${root}\`.`,
    );
  });

  it('points a subdirectory of an indexed project at that project', () => {
    const root = tempRoot();
    mkdirSync(path.join(root, '.monorag'));
    writeFileSync(path.join(root, '.monorag', 'index.sqlite'), '');
    const sub = path.join(root, 'src');
    mkdirSync(sub);
    const error = missingIndexError(createProjectContext({ project: sub, argName: '--project' }));
    expect(error.message).toBe(
      `No index for ${sub} (looked for ${sub}/.monorag/index.sqlite). It lies inside ${root}, which has an index (${root}/.monorag/index.sqlite): ` +
        `give that project instead, \`--project ${root}\` (\`--path src\` keeps a search to this directory).`,
    );
  });
});
