import path from 'node:path';

/**
 * Rules applied before any `.gitignore` or `.monoragignore`, in gitignore syntax; a `.monoragignore`
 * can re-include with `!pattern`. They cover version-control folders, dependency and build caches,
 * lockfiles, build output (`dist/`), minified bundles, editor backups and merge leftovers, and files
 * that commonly hold secrets.
 */
export const DEFAULT_IGNORE_RULES: readonly string[] = [
  // version control and our own data (`.git` a directory, or the file of a submodule or linked
  // worktree; the ignore filter leaves it out whatever the rule files say: isGitMetadata)
  '.git',
  '.hg/',
  '.svn/',
  '.monorag/',
  // dependencies, virtual environments, caches
  'node_modules/',
  'bower_components/',
  '.pnpm-store/',
  '__pycache__/',
  '.venv/',
  'venv/',
  '.tox/',
  '.mypy_cache/',
  '.pytest_cache/',
  '.ruff_cache/',
  '.cache/',
  '.turbo/',
  '.parcel-cache/',
  '.next/',
  '.nuxt/',
  '.svelte-kit/',
  'coverage/',
  '.nyc_output/',
  'target/',
  '.gradle/',
  '.idea/',
  '.vscode/',
  // lockfiles (generated, large, no retrieval value)
  'package-lock.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'npm-shrinkwrap.json',
  'bun.lockb',
  'Cargo.lock',
  'poetry.lock',
  'Pipfile.lock',
  'uv.lock',
  'composer.lock',
  'Gemfile.lock',
  'go.sum',
  // generated output: build folders (a committed `dist/` bundle repeats the source it was built
  // from, e.g. axios's dist/node/axios.cjs holds lib/ again, and outranks it; re-include with `!dist/`)
  'dist/',
  '*.min.js',
  '*.min.css',
  '*.map',
  '*.bundle.js',
  '*.tsbuildinfo',
  // editor backups, swap and lock files, merge and patch leftovers: stale copies of sources that
  // would be found beside the real file (`#` starts a comment in gitignore syntax, hence `\#`)
  '*~',
  '\\#*#',
  '.#*',
  '*.swp',
  '*.swo',
  '*.orig',
  '*.rej',
  // secrets
  '.env',
  '.env.*',
  '*.pem',
  '*.key',
  '*.p12',
  '*.pfx',
  'id_rsa',
  'id_rsa.*',
  'id_ed25519',
  'id_ed25519.*',
  '.npmrc',
  '.pypirc',
  '.netrc',
];

/**
 * File extensions that are never text worth indexing (checked before reading). Files without one of
 * these extensions are still sniffed for binary content.
 */
export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    'png jpg jpeg gif bmp ico webp avif tiff psd svgz pdf zip gz tgz bz2 xz zst 7z rar tar jar war ear ' +
    'class dll so dylib exe bin o a lib obj wasm pyc pyo whl egg mp3 mp4 m4a wav ogg flac avi mov mkv webm ' +
    'ttf otf woff woff2 eot sqlite sqlite3 db parquet arrow feather npy npz pkl pt pth onnx safetensors ' +
    'ckpt h5 docx xlsx pptx odt ods dmg iso img deb rpm'
  ).split(' '),
);

/** Whether a file is binary by its name alone (its extension, any case, is one of {@link BINARY_EXTENSIONS}): a run never reads it. */
export function binaryByName(name: string): boolean {
  return BINARY_EXTENSIONS.has(path.extname(name).slice(1).toLowerCase());
}
