import type { LanguageSpec } from './language-spec.js';

/** Markdown (`.md`, `.mdx`, `.markdown`): split by heading sections. */
export const MARKDOWN: LanguageSpec = {
  id: 'markdown',
  extensions: ['.md', '.mdx', '.markdown', '.mdown', '.mkd'],
  strategy: 'markdown',
};

/** reStructuredText (`.rst`): split by section titles (a title line underlined, optionally overlined, by punctuation). */
export const RESTRUCTURED_TEXT: LanguageSpec = {
  id: 'rst',
  extensions: ['.rst', '.rest'],
  strategy: 'rst',
};

/** JSON (`.json`, `.jsonc`, `.json5`): one section per top-level key. */
export const JSON_DATA: LanguageSpec = { id: 'json', extensions: ['.json', '.jsonc', '.json5'], strategy: 'keys', keys: 'json' };

/** YAML (`.yaml`, `.yml`): one section per top-level key (documents split at `---`). */
export const YAML_DATA: LanguageSpec = { id: 'yaml', extensions: ['.yaml', '.yml'], strategy: 'keys', keys: 'yaml' };

/** TOML (`.toml`): one section per `[table]` header and per top-level key before the first table. */
export const TOML_DATA: LanguageSpec = { id: 'toml', extensions: ['.toml'], strategy: 'keys', keys: 'toml', fileNames: ['cargo.lock'] };

/** Vue single-file components (`.vue`): `<script>` blocks chunked as JavaScript or TypeScript, the rest by windows. */
export const VUE: LanguageSpec = { id: 'vue', extensions: ['.vue'], strategy: 'embedded' };

/** Svelte components (`.svelte`): `<script>` blocks chunked as JavaScript or TypeScript, the rest by windows. */
export const SVELTE: LanguageSpec = { id: 'svelte', extensions: ['.svelte'], strategy: 'embedded' };

/**
 * Jupyter notebooks (`.ipynb`, nbformat 4): cells chunked by their decoded source (code cells in the kernel's
 * language, Markdown cells by sections), outputs and metadata left out; see `notebookChunks`.
 */
export const JUPYTER: LanguageSpec = { id: 'jupyter', extensions: ['.ipynb'], strategy: 'notebook' };
