import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addGitExclude } from './git-exclude.js';

describe('addGitExclude', () => {
  it('appends the pattern once, keeping existing lines', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'monorag-exclude-'));
    mkdirSync(path.join(root, '.git', 'info'), { recursive: true });
    writeFileSync(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(path.join(root, '.git', 'info', 'exclude'), '# git ls-files --others --exclude-from=.git/info/exclude\n*.swp');
    expect(await addGitExclude(root, '/.monorag/')).toBe(true);
    expect(await addGitExclude(root, '/.monorag/')).toBe(false);
    expect(readFileSync(path.join(root, '.git', 'info', 'exclude'), 'utf8')).toBe(
      '# git ls-files --others --exclude-from=.git/info/exclude\n*.swp\n/.monorag/\n',
    );
  });

  it('does nothing outside a git work tree', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'monorag-exclude-'));
    expect(await addGitExclude(root, '/.monorag/')).toBe(false);
  });
});
