import { describe, expect, it } from 'vitest';
import { findSecrets } from './find-secrets.js';
import { redactSecrets } from './redact-secrets.js';

/** `n` characters of a fixed, random-looking alphabet walk: fake token bodies built at run time, so this file holds no literal a scanner flags. */
function body(n: number, alphabet = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789'): string {
  return Array.from({ length: n }, (_, i) => alphabet[(i * 7 + 3) % alphabet.length]).join('');
}

const GITHUB = ['gh', 'p_', body(36)].join('');
const AWS_ID = ['AK', 'IA', body(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')].join('');
const AWS_SECRET = body(40);
const SLACK = ['xo', 'xb-', '1234567890-1234567890123-', body(24)].join('');
const STRIPE = ['sk', '_live_', body(24)].join('');
const NPM = ['np', 'm_', body(36)].join('');
const ANTHROPIC = ['sk-', 'ant-api03-', body(93), 'AA'].join('');
const BASIC = ['https://deploy:', body(12), '@ci.internal.io'].join('');

const lines = (text: string): number => text.split('\n').length;

describe('findSecrets', () => {
  it('finds tokens of several kinds at their exact offsets, and redactSecrets replaces them keeping every line', async () => {
    const text = [
      'import { Octokit } from "@octokit/rest";',
      `const github = new Octokit({ auth: "${GITHUB}" });`,
      `aws_access_key_id = ${AWS_ID}`,
      `AWS_SECRET_ACCESS_KEY="${AWS_SECRET}"`,
      `slack.token = '${SLACK}';`,
      `const stripe = new Stripe("${STRIPE}");`,
      `//registry.npmjs.org/:_authToken=${NPM}`,
      `ANTHROPIC_API_KEY=${ANTHROPIC}`,
      `await fetch("${BASIC}/v1/builds");`,
      'export default github;',
      '',
    ].join('\n');
    const spans = await findSecrets('src/clients.ts', text);
    const expected = [
      ['github', GITHUB], ['aws', AWS_ID], ['aws', AWS_SECRET], ['slack', SLACK], ['stripe', STRIPE], ['npm', NPM], ['anthropic', ANTHROPIC], ['basicauth', BASIC],
    ].map(([ruleId, secret]) => ({ ruleId, start: text.indexOf(secret!), end: text.indexOf(secret!) + secret!.length }));
    expect(spans.map(({ ruleId, start, end }) => ({ ruleId, start, end }))).toEqual(expected);
    // Messages name the kind of secret, never its value.
    for (const span of spans) expect(span.message).not.toContain(text.slice(span.start + 4, span.end - 4));

    const redacted = redactSecrets(text, spans);
    expect(lines(redacted)).toBe(lines(text));
    expect(redacted.split('\n').slice(1, 9)).toEqual([
      'const github = new Octokit({ auth: "[REDACTED:github]" });',
      'aws_access_key_id = [REDACTED:aws]',
      'AWS_SECRET_ACCESS_KEY="[REDACTED:aws]"',
      "slack.token = '[REDACTED:slack]';",
      'const stripe = new Stripe("[REDACTED:stripe]");',
      '//registry.npmjs.org/:_authToken=[REDACTED:npm]',
      'ANTHROPIC_API_KEY=[REDACTED:anthropic]',
      'await fetch("[REDACTED:basicauth]/v1/builds");',
    ]);
    for (const [, secret] of expected.entries()) expect(redacted).not.toContain(text.slice(secret.start, secret.end));
  });

  it('ends a connection string at the closing quote of its literal, so the line keeps its `";`', async () => {
    const text = [
      'export const dbUrl = "postgres://admin:s3cretPassw0rd@db.internal:5432/app";',
      "const mongo = connect('mongodb+srv://user:hunter2pass@cluster0.example.net/db', { tls: true });",
      'DATABASE_URL=postgres://admin:s3cretPassw0rd@db.internal:5432/app',
      '',
    ].join('\n');
    const spans = await findSecrets('src/db.ts', text);
    expect(spans.map((s) => s.ruleId)).toEqual(['database-connection-string', 'database-connection-string', 'database-connection-string']);
    expect(redactSecrets(text, spans).split('\n').slice(0, 3)).toEqual([
      'export const dbUrl = "[REDACTED:database-connection-string]";',
      "const mongo = connect('[REDACTED:database-connection-string]', { tls: true });",
      'DATABASE_URL=[REDACTED:database-connection-string]',
    ]);
  });

  it('flags nothing in ordinary code: JWT test vectors, hashes, UUIDs, base64 images, documented example credentials', async () => {
    const text = [
      '// RFC 7519 / jwt.io test vector',
      "const token = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';",
      "const sha256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';",
      "const sha1 = 'da39a3ee5e6b4b0d3255bfef95601890afd80709';",
      "const id = '123e4567-e89b-12d3-a456-426614174000';",
      "const pixel = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';",
      "const integrity = 'sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==';",
      '// see https://docs.aws.amazon.com: AKIAIOSFODNN7EXAMPLE',
      "axios.get('https://user:pass@example.com/', { auth: { username: 'user', password: 'pass' } });",
      'const password = process.env.DB_PASSWORD; const apiKey = config.get("apiKey");',
      'export function secretKey(length: number): string { return randomBytes(length).toString("hex"); }',
      '',
    ].join('\n');
    expect(await findSecrets('test/vectors.ts', text)).toEqual([]);
  });
});

describe('redactSecrets', () => {
  it('keeps the newlines of a span that crosses lines, merges overlapping spans, and leaves a text without spans as it is', () => {
    const text = 'a = "one\ntwo\nthree" + x;\nend\n';
    const start = text.indexOf('one');
    const end = text.indexOf('three') + 'three'.length;
    expect(redactSecrets(text, [{ start, end, ruleId: 'demo' }])).toBe('a = "[REDACTED:demo]\n\n" + x;\nend\n');
    expect(redactSecrets('k=abcdef;', [{ start: 4, end: 8, ruleId: 'late' }, { start: 2, end: 6, ruleId: 'first' }])).toBe('k=[REDACTED:first];');
    expect(redactSecrets(text, [])).toBe(text);
  });

  it('throws INVALID_ARGUMENT for a span that is not a range of the text', () => {
    expect(() => redactSecrets('short', [{ start: 2, end: 9, ruleId: 'x' }])).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => redactSecrets('short', [{ start: 3, end: 3, ruleId: 'x' }])).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
