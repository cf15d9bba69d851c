import { pbkdf2Sync, randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import {
  bcryptHash,
  pbkdf2Hash,
  pbkdf2Limits,
  verifyImportedHash,
} from '../../src/accounts/imported-password-hashes.js';
import { needsRehash, verifyPassword } from '../../src/accounts/passwords.js';

/** Imported hashes (docs/operations.md, "Migrating from Keycloak and Auth0"): stored with their algorithm, checked with it. */
const stored = (digest: 'sha1' | 'sha256' | 'sha512', password: string, iterations = 1000, keyBytes = 32) => {
  const salt = randomBytes(16);
  const made = pbkdf2Hash(digest, iterations, salt, pbkdf2Sync(password, salt, iterations, keyBytes, digest));
  if (!('hash' in made)) throw new Error(made.problem);
  return made.hash;
};

describe('imported password hashes', () => {
  it.each(['sha1', 'sha256', 'sha512'] as const)(
    'checks PBKDF2-%s with its own digest, salt and length',
    async (digest) => {
      const hash = stored(digest, 'pässword', 1200, 64);
      expect(hash).toMatch(new RegExp(`^\\$pbkdf2-${digest}\\$i=1200\\$[A-Za-z0-9+/]+\\$[A-Za-z0-9+/]+$`));
      expect(await verifyImportedHash(hash, 'pässword')).toBe(true);
      expect(await verifyImportedHash(hash, 'password')).toBe(false);
      expect(await verifyPassword(hash, 'pässword')).toBe(true);
    },
  );

  it('refuses to store PBKDF2 parameters no sign-in should compute, or a key that is no hash', () => {
    const salt = randomBytes(16);
    const key = randomBytes(32);
    expect(pbkdf2Hash('sha256', 999, salt, key)).toEqual({
      problem: '999 PBKDF2 iterations is outside 1000..10000000',
    });
    expect(pbkdf2Hash('sha256', 10_000_001, salt, key)).toEqual({
      problem: '10000001 PBKDF2 iterations is outside 1000..10000000',
    });
    expect(pbkdf2Hash('sha256', 1500.5, salt, key)).toMatchObject({ problem: expect.stringContaining('1500.5') });
    expect(pbkdf2Hash('sha256', 1000, salt, randomBytes(15))).toEqual({
      problem: 'a 15-byte PBKDF2 hash is outside 16..256 bytes',
    });
    expect(pbkdf2Hash('sha256', 1000, salt, randomBytes(257))).toEqual({
      problem: 'a 257-byte PBKDF2 hash is outside 16..256 bytes',
    });
    expect(pbkdf2Hash('sha256', 1000, Buffer.alloc(0), key)).toEqual({ problem: 'the PBKDF2 salt is empty' });
  });

  it('treats a stored PBKDF2 hash beyond the bounds as a mismatch, without computing it', async () => {
    const salt = randomBytes(16).toString('base64').replace(/=+$/, '');
    const key = (bytes: number) => randomBytes(bytes).toString('base64').replace(/=+$/, '');
    expect(pbkdf2Limits.maxIterations).toBeLessThan(99_999_999);
    expect(await verifyImportedHash(`$pbkdf2-sha256$i=99999999$${salt}$${key(32)}`, 'x')).toBe(false);
    expect(await verifyImportedHash(`$pbkdf2-sha256$i=1000$${salt}$${key(300)}`, 'x')).toBe(false);
  });

  it('checks bcrypt $2a$ and $2b$; takes $2y$ as $2b$; leaves anything else to argon2', async () => {
    const hash = bcrypt.hashSync('bcrypt pass', 4);
    expect(await verifyImportedHash(hash, 'bcrypt pass')).toBe(true);
    expect(await verifyImportedHash(hash, 'bcrypt pas')).toBe(false);
    const a = hash.replace(/^\$2b\$/, '$2a$');
    expect(bcryptHash(a)).toBe(a);
    expect(await verifyPassword(a, 'bcrypt pass')).toBe(true);
    const y = hash.replace(/^\$2b\$/, '$2y$');
    expect(bcryptHash(y)).toBe(hash);
    expect(bcryptHash('$2x$04$abc')).toBeNull();
    expect(bcryptHash('e3b0c44298fc1c149afbf4c8996fb924')).toBeNull();
    expect(await verifyImportedHash('$argon2id$v=19$m=19456,t=2,p=1$abc$def', 'x')).toBeNull();
    expect(await verifyImportedHash('$md5$abc', 'x')).toBeNull();
  });

  it('verifies argon2i and argon2d as argon2 does; all but argon2id ask for a rehash', async () => {
    const argon2i = await argon2.hash('old', { type: argon2.argon2i, memoryCost: 1024, timeCost: 2 });
    expect(await verifyPassword(argon2i, 'old')).toBe(true);
    expect(await verifyPassword(argon2i, 'new')).toBe(false);
    expect(needsRehash(argon2i)).toBe(true);
    expect(needsRehash(stored('sha256', 'x'))).toBe(true);
    expect(needsRehash(bcrypt.hashSync('x', 4))).toBe(true);
    expect(needsRehash(await argon2.hash('x', { memoryCost: 1024 }))).toBe(false);
  });
});
