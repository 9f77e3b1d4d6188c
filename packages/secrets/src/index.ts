// Public surface of @monorag/secrets: named exports only.
export { findSecrets, type SecretSpan } from './find-secrets.js';
export { redactSecrets, redactionPlaceholder } from './redact-secrets.js';
export { SECRET_SCANNER_ID } from './secretlint-config.js';
export { summariseSecrets } from './summarise-secrets.js';
