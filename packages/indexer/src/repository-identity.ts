import { simpleGit } from 'simple-git';

/** What identifies a project directory across machines and checkouts, from {@link repositoryIdentity}. */
export interface RepositoryIdentity {
  /**
   * `origin <host/path of the remote URL>` (scheme, user and `.git` dropped, `host:path` read as
   * `host/path`, so the SSH and HTTPS URLs of one repository agree), else `root <first commits of the
   * history, sorted, comma-joined>` for a complete (not shallow) history, else `path <the directory's
   * real path>`. Then, for a directory below the repository's top level, ` #<its path from there>/`.
   */
  id: string;
  /** A readable name: the last segment of the remote's path when the directory is the repository's top level, else null. */
  repositoryName: string | null;
}

/**
 * The remote URL reduced to `host/path`: `git@github.com:pinojs/pino.git`, `ssh://git@github.com/pinojs/pino`
 * and `https://user@github.com/pinojs/pino.git/` all give `github.com/pinojs/pino` (host lower-cased).
 * A local path (`/srv/git/pino.git`, `file:///srv/git/pino`) gives the path without `.git`.
 */
export function normaliseRemoteUrl(url: string): string {
  let rest = url.trim();
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(rest);
  if (scheme) {
    rest = rest.slice(scheme[0].length);
  } else {
    // scp-like `user@host:path`: the first colon before any slash separates host and path.
    const scp = /^([^/@]+@)?([^/:]+):(?!\/)/.exec(rest);
    if (scp) rest = `${scp[2]}/${rest.slice(scp[0].length)}`;
  }
  rest = rest.replace(/^[^/@]*@/, '');
  const slash = rest.indexOf('/');
  const host = slash === -1 ? rest : rest.slice(0, slash);
  const path = slash === -1 ? '' : rest.slice(slash);
  return `${host.toLowerCase()}${path}`.replace(/\/+$/, '').replace(/\.git$/, '');
}

/**
 * The identity of the project at `root` (see {@link RepositoryIdentity}): what makes two checkouts
 * of one repository (on two machines, under two directory names) the same project, and two
 * repositories that happen to share a directory name two projects.
 * @param root absolute real path of the project directory.
 * @returns never throws: outside git, without git on PATH, or in a repository without commits, the
 *   path identity.
 */
export async function repositoryIdentity(root: string): Promise<RepositoryIdentity> {
  const fallback: RepositoryIdentity = { id: `path ${root}`, repositoryName: null };
  const git = simpleGit({ baseDir: root });
  let prefix: string;
  try {
    if ((await git.raw(['rev-parse', '--is-inside-work-tree'])).trim() !== 'true') return fallback;
    prefix = (await git.raw(['rev-parse', '--show-prefix'])).trim();
  } catch {
    // Not a git work tree, or git missing: the directory itself is the project.
    return fallback;
  }
  const below = prefix === '' ? '' : ` #${prefix}`;
  const remote = (await git.getConfig('remote.origin.url').catch(() => null))?.value ?? null;
  if (remote) {
    const normalised = normaliseRemoteUrl(remote);
    const name = normalised.split('/').filter(Boolean).pop() ?? null;
    return { id: `origin ${normalised}${below}`, repositoryName: prefix === '' ? name : null };
  }
  try {
    const shallow = (await git.raw(['rev-parse', '--is-shallow-repository'])).trim() === 'true';
    if (shallow) return fallback;
    const roots = (await git.raw(['rev-list', '--max-parents=0', 'HEAD'])).split('\n').filter(Boolean).sort();
    if (roots.length > 0) return { id: `root ${roots.join(',')}${below}`, repositoryName: null };
  } catch {
    // No commit yet: nothing but the directory identifies it.
  }
  return fallback;
}
