import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrustProxy } from '../../src/config/types.js';
import { testConfig } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, seedUser, testPassword, type TestApp } from '../support/test-app.js';
import { load, secretLine, yaml } from '../config/load-text.js';

/**
 * Issue #10: with the old `trust_proxy: true` the client address was the
 * first X-Forwarded-For entry, which the client writes, so a fresh made-up
 * address per attempt escaped the per-address login limit. Behind a proxy
 * at 10.0.0.2, the attacker at 203.0.113.7 now stays 203.0.113.7.
 */
function trustProxyOf(setting: string): TrustProxy {
  const result = load(yaml(secretLine, 'server:', `  trust_proxy: ${setting}`));
  if (!result.ok) throw new Error(`trust_proxy: ${setting} does not load`);
  return result.config.server.trustProxy;
}

const proxy = '10.0.0.2';
const attacker = '203.0.113.7';
const spoofed = () => `${randomInt(1, 224)}.${randomInt(256)}.${randomInt(256)}.${randomInt(256)}`;

describe.each(databaseKinds)('the per-address login limit behind a proxy on %s', (kind) => {
  describe.each(['true', '1', '[10.0.0.0/8]', '["127.0.0.1", "10.0.0.2/32", "fd00::/8"]'])(
    'trust_proxy: %s',
    (setting) => {
      let t: TestApp;
      const maxAttempts = 3;

      beforeAll(async () => {
        const base = testConfig();
        t = await createTestApp(kind, {
          server: { ...base.server, host: '127.0.0.1', port: 0, trustProxy: trustProxyOf(setting) },
          security: {
            ...base.security,
            loginRateLimit: { maxAttempts, addressMaxAttempts: maxAttempts, windowSeconds: 600 },
          },
        });
        for (const sub of ['a1', 'a2', 'a3', 'a4']) await seedUser(t, { sub, email: `${sub}@example.com` });
      });
      afterAll(() => t.destroy());

      /** A login through the proxy, which appends the address of its peer (`from`) to what the client sent. */
      const viaProxy = (from: string, sentByClient: string | null, email: string, password: string) =>
        t.app.server.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: proxy,
          headers: { 'x-forwarded-for': sentByClient === null ? from : `${sentByClient}, ${from}` },
          payload: { email, password },
        });

      it('a spoofed first X-Forwarded-For entry does not escape the limit', async () => {
        for (const sub of ['a1', 'a2', 'a3'])
          expect((await viaProxy(attacker, spoofed(), `${sub}@example.com`, 'wrong')).statusCode).toBe(401);
        const blocked = await viaProxy(attacker, spoofed(), 'a4@example.com', testPassword);
        expect(blocked.statusCode).toBe(429);
        expect(JSON.parse(blocked.payload)).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
        // Another client behind the same proxy is not affected.
        expect((await viaProxy('203.0.113.8', null, 'a4@example.com', testPassword)).statusCode).toBe(200);
      });
    },
  );

  describe('a peer that is not a listed proxy', () => {
    let t: TestApp;
    beforeAll(async () => {
      const base = testConfig();
      t = await createTestApp(kind, {
        server: { ...base.server, host: '127.0.0.1', port: 0, trustProxy: trustProxyOf('[10.0.0.0/8]') },
        security: { ...base.security, loginRateLimit: { maxAttempts: 2, addressMaxAttempts: 2, windowSeconds: 600 } },
      });
      for (const sub of ['p1', 'p2', 'p3']) await seedUser(t, { sub, email: `${sub}@example.com` });
    });
    afterAll(() => t.destroy());

    it('cannot pick its address through X-Forwarded-For at all', async () => {
      const direct = (email: string, password: string) =>
        t.app.server.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: attacker,
          headers: { 'x-forwarded-for': spoofed() },
          payload: { email, password },
        });
      expect((await direct('p1@example.com', 'wrong')).statusCode).toBe(401);
      expect((await direct('p2@example.com', 'wrong')).statusCode).toBe(401);
      expect((await direct('p3@example.com', testPassword)).statusCode).toBe(429);
    });
  });
});
