import { describe, expect, it } from 'vitest';
import {
  ARGON2_MEMORY_KIB,
  ARGON2_PARALLELISM,
  ARGON2_TIME_COST,
  hashPassword,
  verifyPassword,
} from '../../src/accounts/passwords.js';
import { testPasswordHash } from '../support/config-fixture.js';

describe('passwords', () => {
  it('hashes with argon2id and the documented parameters, salted', async () => {
    const hash = await hashPassword('s3cret pass');
    expect(hash).toMatch(/^\$argon2id\$v=19\$/);
    for (const part of [`m=${ARGON2_MEMORY_KIB}`, `t=${ARGON2_TIME_COST}`, `p=${ARGON2_PARALLELISM}`])
      expect(hash).toContain(part);
    expect(await hashPassword('s3cret pass')).not.toBe(hash);
    expect(await verifyPassword(hash, 's3cret pass')).toBe(true);
    expect(await verifyPassword(hash, 's3cret pass ')).toBe(false);
  });

  it('verifies hashes made elsewhere and treats garbage as a mismatch', async () => {
    expect(await verifyPassword(testPasswordHash, 'correct horse battery staple')).toBe(true);
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
    expect(await verifyPassword('', '')).toBe(false);
  });
});
