import { describe, expect, it } from 'vitest';
import { hashClientSecret } from '../../src/clients/hash-client-secret.js';
import { createClientSecretVerifier } from '../../src/clients/verify-client-secret.js';
import { hashPassword, verifyPassword } from '../../src/accounts/passwords.js';

describe('client secrets', () => {
  it('are stored as sha256:<base64url> and verified against it', async () => {
    const secrets = createClientSecretVerifier(verifyPassword);
    const stored = hashClientSecret('s3cr3t-value');
    expect(stored).toBe('sha256:Hz-nSxIIhCqtC2hfDNBgU6noTw638sHJTJbqJcsTzXc');
    expect(await secrets.verify(stored, 's3cr3t-value')).toBe(true);
    expect(await secrets.verify(stored, 's3cr3t-valuE')).toBe(false);
    expect(await secrets.verify(stored, '')).toBe(false);
  });

  it('verify a configured argon2id client_secret_hash', async () => {
    const secrets = createClientSecretVerifier(verifyPassword);
    const stored = await hashPassword('from-the-vault');
    expect(await secrets.verify(stored, 'from-the-vault')).toBe(true);
    expect(await secrets.verify(stored, 'nope')).toBe(false);
  });

  it('run argon2 once per verified secret, never to remember a wrong one', async () => {
    const calls: string[] = [];
    const secrets = createClientSecretVerifier(async (hash, presented) => {
      calls.push(presented);
      return verifyPassword(hash, presented);
    });
    const stored = await hashPassword('from-the-vault');
    for (let i = 0; i < 3; i++) expect(await secrets.verify(stored, 'from-the-vault')).toBe(true);
    for (let i = 0; i < 2; i++) expect(await secrets.verify(stored, 'nope')).toBe(false);
    expect(calls).toEqual(['from-the-vault', 'nope', 'nope']);
  });

  it('stop accepting the old secret when the stored hash changes', async () => {
    const secrets = createClientSecretVerifier(verifyPassword);
    const before = await hashPassword('old-secret');
    expect(await secrets.verify(before, 'old-secret')).toBe(true);
    const after = await hashPassword('new-secret');
    expect(await secrets.verify(after, 'old-secret')).toBe(false);
  });
});
