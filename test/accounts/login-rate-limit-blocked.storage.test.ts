import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { createLoginRateLimit, type LoginRateLimit } from '../../src/accounts/login-rate-limit.js';

/**
 * blockedAccounts (the LOCKED column of `idp admin users list`, GET
 * /api/admin/locked-users): which accounts the login rate limit blocks now,
 * by their password or their second-factor counter, on real storage.
 */
describe.each(databaseKinds)('blocked accounts on %s', (kind) => {
  let t: TestDatabase;
  let limit: LoginRateLimit;
  let now = 1_000_000;
  const windowMs = 60_000;

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    limit = createLoginRateLimit({
      db: t.tx,
      counters: t.storage.repositories.loginRateLimits,
      limits: { maxAttempts: 2, addressMaxAttempts: 100, windowSeconds: windowMs / 1000 },
      clock: { now: () => now },
    });
  });
  afterAll(() => t?.destroy());

  const fail = async (account: string, times: number, secondFactor = false) => {
    for (let i = 0; i < times; i++)
      await limit.beginAttempt({ account, clientAddress: '192.0.2.1', secondFactor }).catch(() => undefined);
  };

  it('names an account at the limit until its window ends, by e-mail lower-cased; one short is no block', async () => {
    expect(await limit.blockedAccounts([])).toEqual(new Map());
    await fail('Ada@Example.com', 2);
    await fail('bob@example.com', 1);
    expect(await limit.blockedAccounts(['ada@example.com', 'BOB@example.com', 'nobody@example.com'])).toEqual(
      new Map([['ada@example.com', now + windowMs]]),
    );
    now += windowMs;
    expect(await limit.blockedAccounts(['ada@example.com'])).toEqual(new Map());
  });

  it('counts a block of the second-factor counter, and the later end when both counters block', async () => {
    await fail('carol@example.com', 2, true);
    const first = now;
    // The codes' counter alone (a right password cleared the account's) still blocks.
    await t.storage.repositories.loginRateLimits.clear(t.tx, 'account:carol@example.com');
    expect(await limit.blockedAccounts(['carol@example.com'])).toEqual(
      new Map([['carol@example.com', first + windowMs]]),
    );
    now += 1000;
    await fail('carol@example.com', 2);
    expect(await limit.blockedAccounts(['carol@example.com'])).toEqual(
      new Map([['carol@example.com', now + windowMs]]),
    );
    await limit.clearAccount('carol@example.com');
    expect(await limit.blockedAccounts(['carol@example.com'])).toEqual(new Map());
  });
});
