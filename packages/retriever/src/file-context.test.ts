import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileContext } from './file-context.js';

let root: string;
let sibling: string;

beforeAll(() => {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-ctx-')));
  root = path.join(base, 'proj');
  sibling = path.join(base, 'proj-secrets');
  mkdirSync(path.join(root, 'src'), { recursive: true });
  mkdirSync(sibling);
  writeFileSync(path.join(sibling, 'key.txt'), 'secret');
  writeFileSync(path.join(root, 'src', 'a.ts'), Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\r\n') + '\r\n');
  symlinkSync(path.join(sibling, 'key.txt'), path.join(root, 'link.txt'));
  writeFileSync(path.join(root, 'empty.py'), '');
  // Names with accents, written precomposed (NFC, as Linux tools do) and decomposed (NFD, as macOS does).
  mkdirSync(path.join(root, 'docs'));
  writeFileSync(path.join(root, 'docs', 'résumé-ünïcode.md'.normalize('NFC')), '# Résumé\n');
  mkdirSync(path.join(root, 'café'.normalize('NFD')));
  writeFileSync(path.join(root, 'café'.normalize('NFD'), 'menü.md'.normalize('NFC')), '# Menü\n');
  writeFileSync(path.join(root, 'newline.py'), '\n');
  symlinkSync('loop-b', path.join(root, 'src', 'loop-a'));
  symlinkSync('loop-a', path.join(root, 'src', 'loop-b'));
  symlinkSync('../gone.md', path.join(root, 'src', 'dangling.md'));
  // Real keys, generated here, under names the ignore rules do not exclude (as `openssl genrsa > realkey.txt` would).
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }) as string;
  const ed25519 = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  writeFileSync(path.join(root, 'realkey.txt'), rsa);
  writeFileSync(path.join(root, 'deploy_notes.txt'), `Deploy notes\n${'step\n'.repeat(40)}${ed25519}`);
  writeFileSync(path.join(root, 'key-format.md'), 'Paste it as:\n\n    -----BEGIN RSA PRIVATE KEY-----\n    ...\n    -----END RSA PRIVATE KEY-----\n');
  writeFileSync(path.join(root, 'one-line.js'), 'x'.repeat(938_909));
  writeFileSync(path.join(root, 'comment-then-long.js'), `// comment\n${'y'.repeat(600_000)}\n`);
  writeFileSync(path.join(root, 'emoji.txt'), `${'a'.repeat(39_999)}\u{1F600}${'b'.repeat(10)}\nnext\n`);
});

describe('readFileContext', () => {
  it('returns exactly the lines asked for (1-based, inclusive)', async () => {
    const ctx = await readFileContext({ root, path: 'src/a.ts', startLine: 3, endLine: 5 });
    expect(ctx).toEqual({ path: 'src/a.ts', startLine: 3, endLine: 5, totalLines: 10, text: 'line 3\nline 4\nline 5', truncated: false });
  });

  it('clamps an endLine past the end; the end of the file is not truncation', async () => {
    const ctx = await readFileContext({ root, path: 'src/a.ts', startLine: 9, endLine: 50 });
    expect(ctx).toMatchObject({ startLine: 9, endLine: 10, text: 'line 9\nline 10', truncated: false, totalLines: 10 });
    expect(await readFileContext({ root, path: 'src/a.ts' })).toMatchObject({ startLine: 1, endLine: 10, truncated: false });
  });

  it('gives an empty file 0 lines and no text (not one empty line), and a file of one newline one line', async () => {
    expect(await readFileContext({ root, path: 'empty.py' })).toEqual({ path: 'empty.py', startLine: 1, endLine: 0, totalLines: 0, text: '', truncated: false });
    expect(await readFileContext({ root, path: 'empty.py', startLine: 1, endLine: 10 })).toMatchObject({ endLine: 0, totalLines: 0 });
    await expect(readFileContext({ root, path: 'empty.py', startLine: 2 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'startLine',
      message: 'Argument "startLine" (2) is past the end of empty.py, which is empty (0 lines).',
    });
    expect(await readFileContext({ root, path: 'newline.py' })).toEqual({ path: 'newline.py', startLine: 1, endLine: 1, totalLines: 1, text: '', truncated: false });
  });

  it('finds a name spelt in the other Unicode form (NFC or NFD) than on disk, and answers with the spelling on disk', async () => {
    const nfc = 'docs/résumé-ünïcode.md'.normalize('NFC');
    expect(await readFileContext({ root, path: nfc.normalize('NFD') })).toMatchObject({ path: nfc, text: '# Résumé', totalLines: 1 });
    expect(await readFileContext({ root, path: nfc })).toMatchObject({ path: nfc });
    // Each component as the disk spells it: a decomposed directory holding a precomposed name.
    const mixed = `${'café'.normalize('NFD')}/${'menü.md'.normalize('NFC')}`;
    for (const asked of [mixed.normalize('NFC'), mixed.normalize('NFD'), path.join(root, mixed.normalize('NFC'))]) {
      expect(await readFileContext({ root, path: asked })).toMatchObject({ path: mixed, text: '# Menü' });
    }
    await expect(readFileContext({ root, path: 'docs/résumé-missing.md' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses a startLine past the end, naming the argument', async () => {
    await expect(readFileContext({ root, path: 'src/a.ts', startLine: 11 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'startLine',
      message: 'Argument "startLine" (11) is past the end of src/a.ts, which has 10 lines.',
    });
  });

  it.each([
    [{ startLine: 0 }, 'startLine', 'Argument "startLine" must be a whole number >= 1 (lines are 1-based); got 0.'],
    [{ startLine: 2, endLine: -1 }, 'endLine', 'Argument "endLine" must be a whole number >= 1 (lines are 1-based); got -1.'],
    [{ startLine: 5, endLine: 3 }, 'endLine', 'Argument "endLine" (3) is before "startLine" (5); give an endLine >= startLine, or none.'],
  ])('refuses the range %o, naming %s in the message and in argument', async (range, argument, message) => {
    await expect(readFileContext({ root, path: 'src/a.ts', ...range })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', argument, message });
  });

  it('says a path holding a NUL byte does, rather than that it must be non-empty', async () => {
    await expect(readFileContext({ root, path: 'src/a.ts\0.txt' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'path',
      message: 'Argument "path" contains a NUL byte (\\0, %00 in a URL), which no file name can hold; send the path without it.',
    });
  });

  it('bounds the response by maxLines', async () => {
    const ctx = await readFileContext({ root, path: 'src/a.ts', startLine: 1, endLine: 10, maxLines: 4 });
    expect(ctx).toMatchObject({ endLine: 4, truncated: true });
  });

  it('without endLine asks for the rest of the file: stopped by maxLines is truncated, reaching the end is not', async () => {
    expect(await readFileContext({ root, path: 'src/a.ts', maxLines: 4 })).toMatchObject({ startLine: 1, endLine: 4, totalLines: 10, truncated: true });
    expect(await readFileContext({ root, path: 'src/a.ts', startLine: 7, maxLines: 4 })).toMatchObject({ startLine: 7, endLine: 10, truncated: false });
  });

  it.each([
    ['../proj-secrets/key.txt', 'PATH_OUTSIDE_PROJECT'],
    ['/etc/passwd', 'PATH_OUTSIDE_PROJECT'],
    ['link.txt', 'PATH_OUTSIDE_PROJECT'],
    ['src/../../proj-secrets/key.txt', 'PATH_OUTSIDE_PROJECT'],
    ['missing.ts', 'NOT_FOUND'],
  ])('refuses %s with %s, naming the argument', async (p, code) => {
    await expect(readFileContext({ root, path: p })).rejects.toMatchObject({ code, message: expect.stringContaining('"path"') });
  });

  it.each([
    ['src/loop-a', 'loop-b, a chain of links that leads back to itself; the index does not follow it (skip reason "symlink-loop")'],
    ['src/dangling.md', '../gone.md, which does not exist; the index does not follow it (skip reason "symlink-broken")'],
  ])('says %s is a symbolic link leading nowhere, naming its target, not that it does not exist', async (p, what) => {
    await expect(readFileContext({ root, path: p })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      argument: 'path',
      message: `Argument "path": ${p} is a symbolic link to ${what}, and there is no file to read.`,
    });
  });

  it('refuses what isReadable refuses as PATH_IGNORED (inside the project, left out by its rules), naming the argument', async () => {
    const isReadable = (rel: string) => rel !== 'src/a.ts';
    await expect(readFileContext({ root, path: 'src/a.ts', isReadable })).rejects.toMatchObject({
      code: 'PATH_IGNORED',
      message: expect.stringContaining('"path": src/a.ts is excluded'),
    });
  });

  it.each(['realkey.txt', 'deploy_notes.txt'])('refuses %s, which holds a private key, whether or not it was indexed', async (p) => {
    await expect(readFileContext({ root, path: p, startLine: 1, endLine: 2 })).rejects.toMatchObject({
      code: 'PATH_IGNORED',
      message: `Argument "path": ${p} holds a private key, so the index leaves it out (skip reason "secret"); it is not served.`,
    });
  });

  it('serves documentation that only shows the key format', async () => {
    expect(await readFileContext({ root, path: 'key-format.md', startLine: 3, endLine: 3 })).toMatchObject({ text: '    -----BEGIN RSA PRIVATE KEY-----' });
  });

  it('cuts a single line longer than maxChars at maxChars, and says so', async () => {
    const ctx = await readFileContext({ root, path: 'one-line.js' });
    expect(ctx).toMatchObject({ startLine: 1, endLine: 1, totalLines: 1, truncated: true, cutLine: { line: 1, shown: 40_000, chars: 938_909 } });
    expect(ctx.text).toHaveLength(40_000);
  });

  it('ends before a later line too long for the rest of the budget, then cuts that line at maxChars', async () => {
    const first = await readFileContext({ root, path: 'comment-then-long.js' });
    expect(first).toEqual({ path: 'comment-then-long.js', startLine: 1, endLine: 1, totalLines: 2, text: '// comment', truncated: true });
    const second = await readFileContext({ root, path: 'comment-then-long.js', startLine: 2 });
    expect(second).toMatchObject({ startLine: 2, endLine: 2, totalLines: 2, truncated: true, cutLine: { line: 2, shown: 40_000, chars: 600_000 } });
    expect(second.text).toBe('y'.repeat(40_000));
  });

  it('never splits a surrogate pair when cutting a line', async () => {
    const ctx = await readFileContext({ root, path: 'emoji.txt' });
    expect(ctx).toMatchObject({ endLine: 1, truncated: true, cutLine: { line: 1, shown: 39_999, chars: 40_011 } });
    expect(ctx.text).toBe('a'.repeat(39_999));
  });

  it('fills maxChars exactly with whole lines (newlines counted) and no more', async () => {
    expect(await readFileContext({ root, path: 'src/a.ts', maxChars: 13 })).toMatchObject({ endLine: 2, text: 'line 1\nline 2', truncated: true });
    expect(await readFileContext({ root, path: 'src/a.ts', maxChars: 12 })).toMatchObject({ endLine: 1, text: 'line 1', truncated: true });
  });

  it('refuses the sibling directory that shares the root name as a prefix', async () => {
    await expect(readFileContext({ root, path: path.join(sibling, 'key.txt') })).rejects.toMatchObject({ code: 'PATH_OUTSIDE_PROJECT' });
  });

  it('refuses a named pipe as not a regular file, at once, without opening it for a read that would block', async () => {
    execFileSync('mkfifo', [path.join(root, 'src', 'pipe')]);
    const refused = readFileContext({ root, path: 'src/pipe' });
    await expect(refused).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'Argument "path": src/pipe is a named pipe (FIFO), not a regular file; only regular files can be read.',
    });
  }, 5_000);

  it('refuses a directory, naming it', async () => {
    await expect(readFileContext({ root, path: 'src' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'Argument "path": src is a directory, not a regular file; only regular files can be read.',
    });
  });

  it('refuses the project root as a directory, naming it, also when ignore rules are given (a trial got "PATH_IGNORED:  is excluded")', async () => {
    for (const given of ['.', './', root]) {
      await expect(readFileContext({ root, path: given, isReadable: () => false })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: `Argument "path": ${given} is the project's root directory, not a regular file; only regular files can be read.`,
      });
    }
  });
});
