import type { SecretSpan } from './find-secrets.js';

/** Spans per rule id (`{ github: 2, aws: 1 }`), keys sorted: what reports and the manifest keep of a file's secrets, never their values. */
export function summariseSecrets(spans: readonly Pick<SecretSpan, 'ruleId'>[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const id of spans.map((s) => s.ruleId).sort()) counts[id] = (counts[id] ?? 0) + 1;
  return counts;
}
