import type { LanguageSpec } from './language-spec.js';

/** Markdown (`.md`, `.mdx`, `.markdown`): split by heading sections. */
export const MARKDOWN: LanguageSpec = {
  id: 'markdown',
  extensions: ['.md', '.mdx', '.markdown', '.mdown', '.mkd'],
  strategy: 'markdown',
};
