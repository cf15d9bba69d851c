import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserCodeRateLimit } from '../../../src/oidc/device/user-code-rate-limit.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases.js';
import { testClock } from '../../support/second-factor-client.js';

/**
 * RFC 8628 §5.1: wrong user codes per client address, on the login rate
 * limit's counters. Parallel guesses must get no more lookups than the
 * limit, on either database.
 */
describe.each(databaseKinds)('the user code rate limit on %s', (kind) => {
  let database: TestDatabase;
  const clock = testClock(1_000_000);
  const limits = { maxAttempts: 5, addressMaxAttempts: 3, windowSeconds: 60 };
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.destroy());

  const limitOf = () =>
    createUserCodeRateLimit({
      db: database.storage.db,
      counters: database.storage.repositories.loginRateLimits,
      limits,
      clock,
    });

  it('lets at most the limit of 10 parallel wrong guesses look up, then refuses with the time left', async () => {
    const limit = limitOf();
    let lookups = 0;
    const wrong = () => {
      lookups += 1;
      return Promise.resolve(null);
    };
    const results = await Promise.all(Array.from({ length: 10 }, () => limit.lookUp('10.0.0.1', wrong)));
    expect(lookups).toBe(3);
    expect(results.filter((r) => !r.ok && r.retryAfterSeconds === null)).toHaveLength(3);
    expect(results.filter((r) => !r.ok && r.retryAfterSeconds === 60)).toHaveLength(7);
    // Another address is not concerned; the IPv4-mapped spelling of this one is.
    expect(await limit.lookUp('10.0.0.2', () => Promise.resolve('found'))).toEqual({ ok: true, value: 'found' });
    expect(await limit.lookUp('::ffff:10.0.0.1', () => Promise.resolve('found'))).toMatchObject({ ok: false });
    clock.advance(30_000);
    expect(await limit.lookUp('10.0.0.1', () => Promise.resolve('found'))).toEqual({
      ok: false,
      retryAfterSeconds: 30,
    });
    clock.advance(30_001);
    expect(await limit.lookUp('10.0.0.1', () => Promise.resolve('found'))).toEqual({ ok: true, value: 'found' });
  });

  it('takes a right code back: right codes never add up', async () => {
    const limit = limitOf();
    for (let i = 0; i < 10; i += 1)
      expect(await limit.lookUp('10.0.0.3', () => Promise.resolve(i))).toEqual({ ok: true, value: i });
    expect(await limit.lookUp('10.0.0.3', () => Promise.resolve(null))).toEqual({ ok: false, retryAfterSeconds: null });
  });
});
