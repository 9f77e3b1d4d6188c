import { settingSource } from '@monorag/shared';
import type { ProjectContext } from './project-context.js';

/**
 * A setting named as the user set it, for error messages: `--host 0.0.0.0` for a flag or the default,
 * `MONORAG_GATEWAY_HOST=0.0.0.0` for the environment, `"gateway.host": "0.0.0.0" in /p/monorag.json` for the file.
 * @param keyPath the setting's key (e.g. `['gateway', 'host']`); `flag` its command-line flag (e.g. `--host`).
 * @throws MonoragError `CONFIG_INVALID` when `monorag.json` cannot be read (see `settingSource`).
 */
export function settingLabel(context: ProjectContext, keyPath: readonly string[], flag: string, value: string | number): string {
  const source = settingSource(keyPath, { projectRoot: context.root, overrides: context.overrides });
  if (source.kind === 'env') return `${source.variable}=${value}`;
  if (source.kind === 'file') return `"${keyPath.join('.')}": ${JSON.stringify(value)} in ${source.file}`;
  return `${flag} ${value}`;
}
