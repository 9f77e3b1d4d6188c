import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { ErrorCode, MonoragError } from '@monorag/shared';
import { maskedMessage, messageSpan } from './message-span.js';
import { RULE_ID_PREFIX, SECRETLINT_CONFIG } from './secretlint-config.js';

// secretlint's profiler is on by default: it adds two `performance.mark` entries per rule and file to
// the process-wide performance timeline and never clears them (a long-running `serve` would grow
// without bound, and Node warns past a million entries). monorag never reads the profile.
secretLintProfiler.setEnabled(false);

/** One secret found in a text. */
export interface SecretSpan {
  /** Offset of the secret's first character in the text, in UTF-16 code units (a JS string index). */
  start: number;
  /** Offset just past the secret's last character, in UTF-16 code units; `end > start`. */
  end: number;
  /** The secretlint rule that found it, without the `@secretlint/secretlint-rule-` prefix: `github`, `aws`, `slack`, ... */
  ruleId: string;
  /** secretlint's message with the secret itself masked as `****`; safe to log or show. */
  message: string;
}

/**
 * Finds secrets in `text` with secretlint's recommended rules (cloud and API tokens of AWS, GCP,
 * GitHub, GitLab, Slack, npm, OpenAI, Anthropic, Stripe, SendGrid, ..., basic-auth credentials in
 * URLs, database connection strings, private keys; see `SECRETLINT_CONFIG`). Spans come sorted by
 * `start`; they may overlap when two rules match the same text. `path` is only passed to the rules
 * (some look at the file name, e.g. a GCP service-account JSON); the file is not read. Costs about
 * 15-35 MB of text per second (measured on undici's sources).
 * @throws MonoragError `FILE_UNREADABLE` naming `path` when a secretlint rule fails on the text.
 */
export async function findSecrets(path: string, text: string): Promise<SecretSpan[]> {
  let messages;
  try {
    ({ messages } = await lintSource({
      // The GCP rule reads a `.p12` file from disk by this path (it expects a binary key); the name is
      // changed so that it sees only `text`.
      source: { filePath: /\.p12$/i.test(path) ? `${path}.text` : path, content: text, contentType: 'text' },
      options: { config: SECRETLINT_CONFIG, noPhysicFilePath: true },
    }));
  } catch (error) {
    throw new MonoragError(ErrorCode.FILE_UNREADABLE, `Cannot scan ${path} for secrets: ${(error as Error).message}.`, { cause: error });
  }
  return messages
    .filter((m) => m.range[1] > m.range[0])
    .map((m) => ({
      ...messageSpan(text, m),
      ruleId: m.ruleId.startsWith(RULE_ID_PREFIX) ? m.ruleId.slice(RULE_ID_PREFIX.length) : m.ruleId,
      message: maskedMessage(m),
    }))
    .sort((a, b) => a.start - b.start || b.end - a.end);
}
