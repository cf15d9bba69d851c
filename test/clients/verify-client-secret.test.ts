import { describe, expect, it } from 'vitest';
import { hashClientSecret } from '../../src/clients/hash-client-secret.js';
import { verifyClientSecret } from '../../src/clients/verify-client-secret.js';
import { hashPassword } from '../../src/accounts/passwords.js';

describe('client secrets', () => {
  it('are stored as sha256:<base64url> and verified against it', async () => {
    const stored = hashClientSecret('s3cr3t-value');
    expect(stored).toBe('sha256:Hz-nSxIIhCqtC2hfDNBgU6noTw638sHJTJbqJcsTzXc');
    expect(await verifyClientSecret(stored, 's3cr3t-value')).toBe(true);
    expect(await verifyClientSecret(stored, 's3cr3t-valuE')).toBe(false);
    expect(await verifyClientSecret(stored, '')).toBe(false);
  });

  it('verify a configured argon2id client_secret_hash', async () => {
    const stored = await hashPassword('from-the-vault');
    expect(await verifyClientSecret(stored, 'from-the-vault')).toBe(true);
    expect(await verifyClientSecret(stored, 'nope')).toBe(false);
  });

  it('never match for a public client', async () => {
    expect(await verifyClientSecret(null, 'anything')).toBe(false);
  });
});
