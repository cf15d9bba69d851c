import { describe, expect, it } from 'vitest';
import { authenticator } from 'otplib';
import { matchTotpStep, totpCodeAt, totpStep, totpUri } from '../../src/accounts/totp.js';
import { generateRecoveryCodes, hashRecoveryCode, normalizeRecoveryCode } from '../../src/accounts/recovery-codes.js';
import { challengeOf } from '../../src/accounts/webauthn-challenge.js';
import { seal, sealingKey, unseal } from '../../src/security/index.js';

/** The small pieces under the second factors, as tables. */
const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const step = 30_000;
const t = 55_555_555 * step + 12_000;

describe('TOTP codes (RFC 6238: SHA-1, 6 digits, 30 s)', () => {
  it('computes the codes an authenticator app shows', () => {
    expect(totpCodeAt(secret, totpStep(t))).toBe(authenticator.clone({ epoch: t }).generate(secret));
  });

  it.each([
    ['the current step', 0, 0],
    ['one step early', -1, -1],
    ['one step late', 1, 1],
    ['two steps early', -2, null],
    ['two steps late', 2, null],
  ] as const)('matches %s', (_name, offset, expected) => {
    const code = authenticator.clone({ epoch: t + offset * step }).generate(secret);
    expect(matchTotpStep(secret, code, t)).toBe(expected === null ? null : totpStep(t) + expected);
  });

  it.each(['12345', '1234567', '12345a', ' 123456', ''])('never matches %j, which is no 6-digit code', (code) => {
    expect(matchTotpStep(secret, code, t)).toBeNull();
  });

  it('writes the Key Uri Format with issuer and account', () => {
    expect(totpUri(secret, 'ada@example.com', 'Acme')).toBe(
      `otpauth://totp/Acme:ada%40example.com?secret=${secret}&period=30&digits=6&algorithm=SHA1&issuer=Acme`,
    );
  });
});

describe('recovery codes', () => {
  it('are 10, distinct, of the look-alike-free alphabet, and read back in any case and spacing', () => {
    const codes = generateRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) {
      expect(code).toMatch(/^[a-km-np-z2-9]{5}-[a-km-np-z2-9]{5}$/);
      expect(normalizeRecoveryCode(` ${code.toUpperCase().replace('-', ' - ')} `)).toBe(code.replace('-', ''));
    }
  });

  it.each(['', 'abcde', 'abcde-fghijk', 'abcde-fgh1j', 'abcde-fghio', 'abcde_fghij'])(
    'refuses %j, which cannot be one',
    (input) => {
      expect(normalizeRecoveryCode(input)).toBeNull();
    },
  );

  it('hashes with a key: the same code under two keys gives two hashes, neither the code', () => {
    const [a, b] = [
      hashRecoveryCode('abcdefghij', sealingKey('s'.repeat(32), 'recovery codes')),
      hashRecoveryCode('abcdefghij', sealingKey('t'.repeat(32), 'recovery codes')),
    ];
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('the challenge of a WebAuthn response', () => {
  const clientData = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  it('is read from the client data', () => {
    expect(challengeOf({ response: { clientDataJSON: clientData({ type: 'webauthn.get', challenge: 'abc' }) } })).toBe(
      'abc',
    );
  });
  it.each([
    ['no response', null],
    ['no client data', { response: {} }],
    ['client data that is no string', { response: { clientDataJSON: 7 } }],
    ['client data that is no JSON', { response: { clientDataJSON: Buffer.from('{').toString('base64url') } }],
    ['no challenge', { response: { clientDataJSON: clientData({ type: 'webauthn.get' }) } }],
    ['an empty challenge', { response: { clientDataJSON: clientData({ challenge: '' }) } }],
    ['a challenge that is no string', { response: { clientDataJSON: clientData({ challenge: 1 }) } }],
  ])('is null with %s', (_name, response) => {
    expect(challengeOf(response)).toBeNull();
  });
});

describe('sealing secrets at rest', () => {
  const key = sealingKey('a-server-secret-of-at-least-32-chars!', 'totp secrets');
  it('opens what it sealed, for the same row only, with the same key only', () => {
    const sealed = seal(Buffer.from('JBSWY3DP'), key, 'alice');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(unseal(sealed, key, 'alice')?.toString()).toBe('JBSWY3DP');
    expect(unseal(sealed, key, 'bob')).toBeNull();
    expect(unseal(sealed, sealingKey('another-server-secret-of-32-chars!!', 'totp secrets'), 'alice')).toBeNull();
    expect(unseal(sealed, sealingKey('a-server-secret-of-at-least-32-chars!', 'signing keys'), 'alice')).toBeNull();
  });
  it.each(['', 'v1', 'v2.a.b.c', 'v1.a.b', 'v1.a.b.c.d'])('refuses %j, which is not sealed this way', (text) => {
    expect(unseal(text, key, 'alice')).toBeNull();
  });
});
