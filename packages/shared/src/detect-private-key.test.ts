import { describe, expect, it } from 'vitest';
import { holdsPrivateKey } from './detect-private-key.js';

const BODY = 'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun';

describe('holdsPrivateKey', () => {
  it('finds PEM and OpenSSH private keys under any name', () => {
    expect(holdsPrivateKey(`const key = \`-----BEGIN RSA PRIVATE KEY-----\n${BODY}\n-----END RSA PRIVATE KEY-----\`;`)).toBe(true);
    expect(holdsPrivateKey(`-----BEGIN OPENSSH PRIVATE KEY-----\r\n${BODY}\r\n`)).toBe(true);
    expect(holdsPrivateKey(`-----BEGIN PRIVATE KEY-----\n${BODY}`)).toBe(true);
    expect(holdsPrivateKey(`-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\n${BODY}`)).toBe(true);
  });

  it('finds keys indented in a fixture, and keys whose line breaks are escapes in a string literal', () => {
    expect(holdsPrivateKey(`export const fixture = \`\n    -----BEGIN PRIVATE KEY-----\n    ${BODY}\n    -----END PRIVATE KEY-----\n\`;`)).toBe(true);
    expect(holdsPrivateKey(`KEY = "-----BEGIN PRIVATE KEY-----\\n${BODY}\\n-----END PRIVATE KEY-----\\n"`)).toBe(true);
    expect(holdsPrivateKey(`{"key": "-----BEGIN RSA PRIVATE KEY-----\\r\\nProc-Type: 4,ENCRYPTED\\r\\nDEK-Info: AES-128-CBC,3F17\\r\\n\\r\\n${BODY}"}`)).toBe(true);
    expect(holdsPrivateKey(`const k = "-----BEGIN PRIVATE KEY-----\\n" +\n  "${BODY}\\n" +`)).toBe(true);
  });

  it('leaves documentation of the format, public keys and certificates alone', () => {
    expect(holdsPrivateKey('Paste it as:\n\n    -----BEGIN RSA PRIVATE KEY-----\n    ...\n    -----END RSA PRIVATE KEY-----\n')).toBe(false);
    expect(holdsPrivateKey(`-----BEGIN PUBLIC KEY-----\n${BODY}`)).toBe(false);
    expect(holdsPrivateKey(`-----BEGIN CERTIFICATE-----\n${BODY}`)).toBe(false);
    expect(holdsPrivateKey('const PRIVATE_KEY_HEADER = "-----BEGIN PRIVATE KEY-----";')).toBe(false);
    expect(holdsPrivateKey('const H = "-----BEGIN PRIVATE KEY-----";\nconst longIdentifierNameThatIsVeryLongIndeedAndMore = 1;')).toBe(false);
    expect(holdsPrivateKey('"-----BEGIN PRIVATE KEY-----\\n...\\n-----END PRIVATE KEY-----"')).toBe(false);
  });
});
