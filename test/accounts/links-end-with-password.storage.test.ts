import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashLinkToken } from '../../src/accounts/link-tokens.js';
import type { LinkTokenPurpose } from '../../src/model/index.js';
import { testConfig } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, inject, seedUser, signIn, testPassword, type TestApp } from '../support/test-app.js';

/**
 * docs/http-api.md "Link tokens": every reset and verification link a user
 * was mailed dies when the password changes (POST /api/user/password) or is
 * reset (POST /api/auth/password/reset), so a link read from an old mailbox
 * or a forwarded mail cannot take the account back after its owner acted.
 */
const INVALID_TOKEN = { code: 'INVALID_TOKEN', message: 'The link is invalid, has expired or has already been used.' };
const newPassword = 'a brand new passphrase';

describe.each(databaseKinds)('links ending with a new password on %s', (kind) => {
  let t: TestApp;
  let address = 0;
  const from = () => ({ 'x-forwarded-for': `10.9.0.${String(++address)}` });

  beforeAll(async () => {
    const base = testConfig();
    t = await createTestApp(kind, {
      server: { ...base.server, host: '127.0.0.1', port: 0, trustProxy: { hops: 1 } },
    });
  });
  afterAll(() => t.destroy());

  /** A link as the mail job would issue it: the raw token, its hash stored for the user's current address. */
  async function mailedLink(sub: string, purpose: LinkTokenPurpose): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    await t.app.storage.repositories.linkTokens.insert(t.app.storage.db, {
      tokenHash: hashLinkToken(token),
      sub,
      purpose,
      email: `${sub}@example.com`,
      createdAt: now,
      expiresAt: now + 3_600_000,
      usedAt: null,
    });
    return token;
  }
  const resetWith = (token: string) =>
    inject(t, 'POST', '/api/auth/password/reset', undefined, { token, password: 'yet another passphrase' }, from());
  const verifyWith = (token: string) => inject(t, 'POST', '/api/auth/email/verify', undefined, { token }, from());

  it('ends every reset and verification link at a password change', async () => {
    await seedUser(t, { sub: 'changer', emailVerified: false });
    const reset = await mailedLink('changer', 'password_reset');
    const verification = await mailedLink('changer', 'email_verification');
    const cookie = await signIn(t, 'changer@example.com');
    const changed = await inject(
      t,
      'POST',
      '/api/user/password',
      cookie,
      { current_password: testPassword, new_password: newPassword },
      from(),
    );
    expect(changed.statusCode).toBe(204);
    for (const [what, answer] of [
      ['reset', await resetWith(reset)],
      ['verification', await verifyWith(verification)],
    ] as const) {
      expect(answer.statusCode, what).toBe(400);
      expect(answer.json(), what).toEqual(INVALID_TOKEN);
    }
    // The password is still the one the owner chose.
    const login = await inject(
      t,
      'POST',
      '/api/auth/login',
      undefined,
      { email: 'changer@example.com', password: newPassword },
      from(),
    );
    expect(login.statusCode).toBe(200);
  });

  it('ends every other link, verification ones included, at a reset', async () => {
    await seedUser(t, { sub: 'resetter', emailVerified: false });
    const verification = await mailedLink('resetter', 'email_verification');
    const used = await mailedLink('resetter', 'password_reset');
    const sibling = await mailedLink('resetter', 'password_reset');
    expect((await resetWith(used)).statusCode).toBe(204);
    for (const [what, answer] of [
      ['reset', await resetWith(sibling)],
      ['verification', await verifyWith(verification)],
    ] as const) {
      expect(answer.statusCode, what).toBe(400);
      expect(answer.json(), what).toEqual(INVALID_TOKEN);
    }
  });

  it('leaves the links of other users alone', async () => {
    await seedUser(t, { sub: 'bystander', emailVerified: false });
    await seedUser(t, { sub: 'mover' });
    const theirs = await mailedLink('bystander', 'email_verification');
    const cookie = await signIn(t, 'mover@example.com');
    await inject(
      t,
      'POST',
      '/api/user/password',
      cookie,
      { current_password: testPassword, new_password: newPassword },
      from(),
    );
    expect((await verifyWith(theirs)).statusCode).toBe(200);
  });
});
