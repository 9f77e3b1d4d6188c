import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { invocationDir, isMonoragError, type ConfigInput } from '@monorag/shared';
import { createProjectContext, enclosingProject, ensureDataDir, refuseNestedProject, resolveProjectRoot } from './project-context.js';

describe('resolveProjectRoot', () => {
  it('names the argument and asks for the project directory, for index and search alike', () => {
    const missing = path.join(mkdtempSync(path.join(tmpdir(), 'monorag-root-')), 'nope');
    expect(() => resolveProjectRoot(missing, '--project')).toThrow(`--project: ${missing} does not exist. Give the path of the project's directory.`);
    const file = path.join(path.dirname(missing), 'a.txt');
    writeFileSync(file, 'x');
    expect(() => resolveProjectRoot(file, '<path>')).toThrow(`<path>: ${file} is a file; give the project's directory.`);
  });
});

describe('invocationDir', () => {
  const own = { npm_lifecycle_event: 'monorag', npm_package_name: 'monorag-workspace' };

  it("is the directory `pnpm monorag` was typed in (INIT_CWD), not the checkout pnpm runs the script from", () => {
    expect(invocationDir({ ...own, INIT_CWD: '/home/me/project' }, '/opt/monorag')).toBe('/home/me/project');
    expect(invocationDir({ ...own }, '/opt/monorag')).toBe('/opt/monorag');
  });

  it("keeps the working directory for anything else: a user's own package script, or no package manager", () => {
    expect(invocationDir({ npm_lifecycle_event: 'index', npm_package_name: 'my-app', INIT_CWD: '/home/me/app/src' }, '/home/me/app')).toBe('/home/me/app');
    expect(invocationDir({ npm_lifecycle_event: 'monorag', npm_package_name: 'my-app', INIT_CWD: '/home/me/app/src' }, '/home/me/app')).toBe('/home/me/app');
    expect(invocationDir({}, '/somewhere')).toBe('/somewhere');
  });

  it('gives resolveProjectRoot its default project and the base of relative paths', () => {
    const typedIn = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-typed-')));
    mkdirSync(path.join(typedIn, 'app'));
    const base = invocationDir({ ...own, INIT_CWD: typedIn }, '/opt/monorag');
    expect(resolveProjectRoot(undefined, '<path>', base)).toBe(typedIn);
    expect(resolveProjectRoot('app', '<path>', base)).toBe(path.join(typedIn, 'app'));
  });
});

describe('a directory inside another project gets no data directory of its own', () => {
  /** A project root with `lib/` inside it; `marker` makes the root a project. */
  function nested(marker: 'config' | 'index' | 'none'): { root: string; lib: string } {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-nested-')));
    mkdirSync(path.join(root, 'lib', 'deep'), { recursive: true });
    if (marker === 'config') writeFileSync(path.join(root, 'monorag.json'), '{"queue": {"kind": "bullmq"}}\n');
    if (marker === 'index') {
      mkdirSync(path.join(root, '.monorag'));
      writeFileSync(path.join(root, '.monorag', 'index.sqlite'), '');
    }
    return { root, lib: path.join(root, 'lib') };
  }
  const contextOf = (dir: string, overrides: ConfigInput = {}) => createProjectContext({ project: dir, argName: '<path>', overrides });

  it('a subdirectory of a project with a monorag.json: ensureDataDir refuses naming the root and what to do, and creates nothing', () => {
    const { root, lib } = nested('config');
    expect(() => ensureDataDir(contextOf(lib))).toThrow(
      `<path>: ${lib} lies inside the project ${root} (its monorag.json): run the command on that root instead (give ${root} as <path>); ` +
        `one index, queue and set of workers serve the whole project, and a search's --path lib keeps to this directory. Nothing was created in ${lib}. ` +
        `To index ${lib} as a project of its own, give it a monorag.json (\`{}\` will do).`,
    );
    expect(existsSync(path.join(lib, '.monorag'))).toBe(false);
    // Any depth; the nearest project counts; the command is suggested when given.
    expect(() => refuseNestedProject(contextOf(path.join(lib, 'deep')), 'worker')).toThrow(`run \`monorag worker ${root}\` instead;`);
    let thrown: unknown;
    try {
      ensureDataDir(contextOf(lib));
    } catch (error) {
      thrown = error;
    }
    expect(isMonoragError(thrown, 'INVALID_ARGUMENT')).toBe(true);
  });

  it('a subdirectory of a project known by its index only: the message names the index file', () => {
    const { root, lib } = nested('index');
    expect(enclosingProject(contextOf(lib))).toEqual({ root, evidence: `its index ${path.join(root, '.monorag', 'index.sqlite')}` });
    expect(() => ensureDataDir(contextOf(lib))).toThrow(`lies inside the project ${root} (its index ${path.join(root, '.monorag', 'index.sqlite')})`);
  });

  it('a subdirectory with a monorag.json of its own, or a data directory already, is a project of its own', () => {
    const own = nested('config');
    writeFileSync(path.join(own.lib, 'monorag.json'), '{}\n');
    expect(enclosingProject(contextOf(own.lib))).toBeUndefined();
    ensureDataDir(contextOf(own.lib));
    expect(existsSync(path.join(own.lib, '.monorag'))).toBe(true);

    const built = nested('config');
    mkdirSync(path.join(built.lib, '.monorag'));
    expect(() => ensureDataDir(contextOf(built.lib))).not.toThrow();
  });

  it('a project with nothing above it, and a data directory shared by absolute path, are not refused', () => {
    const { root, lib } = nested('none');
    ensureDataDir(contextOf(root));
    expect(existsSync(path.join(root, '.monorag'))).toBe(true);
    // The root's data directory exists but holds no index: not a project.
    expect(enclosingProject(contextOf(lib))).toBeUndefined();

    // An absolute data directory names one file for every directory: the root's index is not the sub's parent.
    const shared = nested('none');
    const dataDir = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-nested-data-')));
    writeFileSync(path.join(dataDir, 'index.sqlite'), '');
    expect(enclosingProject(contextOf(shared.lib, { dataDir }))).toBeUndefined();
  });
});

describe('a configured data directory that is a folder of the project (trial: "dataDir": "src" dropped src/ from the index and from git)', () => {
  const contextOf = (root: string, dataDir: string) => createProjectContext({ project: root, argName: '<path>', overrides: { dataDir } });

  it('refuses the project root and a project folder holding files and no index, writing nothing', () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-datadir-folder-')));
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src', 'parse.py'), 'def parse(): pass\n');
    writeFileSync(path.join(root, 'src', 'app.py'), 'import parse\n');
    expect(() => ensureDataDir(contextOf(root, 'src'))).toThrowError(
      `The data directory (from --data-dir, MONORAG_DATA_DIR or "dataDir" in monorag.json) ${root}/src is a folder of the project and holds 2 entries monorag did not write (app.py, ...): ` +
        "monorag leaves its data directory out of the index and out of git's view (.git/info/exclude), so these files would be lost to both. Nothing was written. " +
        'Choose a new directory for the index, such as .monorag (the default) or one outside the project.',
    );
    expect(readdirSync(path.join(root, 'src')).sort()).toEqual(['app.py', 'parse.py']);
    // An index file copied in does not make a source folder a data directory (trial).
    writeFileSync(path.join(root, 'src', 'index.sqlite'), '');
    expect(() => ensureDataDir(contextOf(root, 'src'))).toThrowError(/\/src is a folder of the project and holds 2 entries monorag did not write \(app\.py, \.\.\.\)/);
    // Outside the project: a folder full of files without an index (`--data-dir ..`, another project's root).
    const other = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-datadir-other-')));
    writeFileSync(path.join(other, 'README.md'), '# another project\n');
    expect(() => ensureDataDir(contextOf(root, other))).toThrowError(
      `The data directory (from --data-dir, MONORAG_DATA_DIR or "dataDir" in monorag.json) ${other} holds 1 entry monorag did not write (README.md) and no index: ` +
        'monorag would write its index among them. Nothing was written. Choose a new directory for the index, such as .monorag (the default) or one outside the project.',
    );
    expect(readdirSync(other)).toEqual(['README.md']);
    expect(() => ensureDataDir(contextOf(root, '.'))).toThrowError(
      `The data directory (from --data-dir, MONORAG_DATA_DIR or "dataDir" in monorag.json) is the project root ${root}: the index and its files would sit among the project's own. ` +
        'Choose a new directory for the index, such as .monorag (the default) or one outside the project.',
    );
  });

  it('accepts a new folder, an empty one, one holding only monorag files, and one outside the project that already holds an index', () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-datadir-folder-')));
    ensureDataDir(contextOf(root, 'var/index'));
    expect(existsSync(path.join(root, 'var', 'index'))).toBe(true);
    mkdirSync(path.join(root, 'empty'));
    ensureDataDir(contextOf(root, 'empty'));
    mkdirSync(path.join(root, 'hooked'));
    writeFileSync(path.join(root, 'hooked', 'hooks.log'), '');
    mkdirSync(path.join(root, 'hooked', 'queue'));
    ensureDataDir(contextOf(root, 'hooked'));
    mkdirSync(path.join(root, 'built'));
    writeFileSync(path.join(root, 'built', 'index.sqlite'), '');
    writeFileSync(path.join(root, 'built', 'index.sqlite-wal'), '');
    ensureDataDir(contextOf(root, 'built'));
    // Outside the project, a folder that holds an index (shared by absolute path) may hold other files too.
    const shared = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-datadir-shared-')));
    writeFileSync(path.join(shared, 'index.sqlite'), '');
    writeFileSync(path.join(shared, 'notes.txt'), 'kept beside the index\n');
    ensureDataDir(contextOf(root, shared));
  });
});
