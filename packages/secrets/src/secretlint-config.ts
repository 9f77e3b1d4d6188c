import type { SecretLintCoreConfig } from '@secretlint/types';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';

/** The preset's rule ids share this prefix; a finding's `ruleId` is the rest (`github`, `aws`, ...). */
export const RULE_ID_PREFIX = '@secretlint/secretlint-rule-';

/**
 * Basic-auth URLs whose host is a reserved example domain (RFC 2606: `example.com`, `.org`, `.net`,
 * and the `.example` / `.invalid` top-level domains) name no real server, so their credentials are
 * documentation (axios's README shows `https://user:pass@example.com`). secretlint matches these
 * patterns against the whole URL it found.
 */
const EXAMPLE_HOSTS = [String.raw`/@(?:[-a-zA-Z0-9%._+~#=]+\.)?example\.(?:com|org|net)$/i`, String.raw`/\.(?:example|invalid)$/i`];

/**
 * secretlint's recommended preset with two changes: AWS access key ids (`AKIA...`) and account ids
 * are reported too (the rule's `enableIDScanRule`, off by default), and basic-auth credentials at
 * reserved example hosts are allowed.
 */
export const SECRETLINT_CONFIG: SecretLintCoreConfig = {
  rules: [
    {
      id: `${RULE_ID_PREFIX}preset-recommend`,
      rule: recommendedPreset,
      rules: [
        { id: `${RULE_ID_PREFIX}aws`, options: { enableIDScanRule: true } },
        { id: `${RULE_ID_PREFIX}basicauth`, options: { allows: EXAMPLE_HOSTS } },
      ],
    },
  ],
};

/**
 * Names the scanner and its settings. The indexer records it with the index and re-scans every file
 * when it changes (a new secretlint, another rule set), so stored chunks always match the scanner.
 */
export const SECRET_SCANNER_ID = 'secretlint-13.1.0/recommend+aws-ids/2';
