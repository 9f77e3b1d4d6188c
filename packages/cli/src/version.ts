import { createRequire } from 'node:module';

/** The CLI package's version, reported by `monorag --version` and to MCP clients. */
export const CLI_VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version;
