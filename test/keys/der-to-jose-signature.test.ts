import { describe, expect, it } from 'vitest';
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { derToJoseSignature } from '../../src/keys/der-to-jose-signature.js';

describe('derToJoseSignature', () => {
  it('gives what OpenSSL gives for ieee-p1363, over many signatures (short and padded r and s included)', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    for (let i = 0; i < 500; i++) {
      const data = Buffer.from(`message ${i}`);
      const jose = derToJoseSignature(sign('sha256', data, privateKey));
      expect(jose).toHaveLength(64);
      expect(verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, jose)).toBe(true);
    }
  });

  it('refuses what is not a DER signature', () => {
    expect(() => derToJoseSignature(Buffer.from('30060201010301ff', 'hex'))).toThrow(/not a DER/);
  });
});
