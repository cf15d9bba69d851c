import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyConfig } from '../../src/gitops/index.js';
import { testClient } from '../support/config-fixture.js';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, inject, seedUser, signIn, type TestApp } from '../support/test-app.js';

/**
 * A session that cannot be read (the database fails) is not "not signed
 * in": the routes that read the cookie themselves answer a server error,
 * logged, and never send a signed-in user to a fresh sign-in.
 */
describe.each(databaseKinds)('a session read that fails on %s', (kind) => {
  let t: TestApp;
  let cookie: string;
  const authorizeUrl = `/oauth2/authorize?${new URLSearchParams({
    client_id: 'web',
    redirect_uri: 'https://web.example.com/callback',
    response_type: 'code',
    scope: 'openid',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    state: 'st',
  }).toString()}`;

  beforeEach(async () => {
    t = await createTestApp(kind, { clients: [testClient({ skipConsent: true })] });
    await applyConfig(t.database.storage, t.config);
    await seedUser(t, { sub: 'ada' });
    cookie = await signIn(t, 'ada@example.com');
  });
  afterEach(() => t.destroy());

  /** The sessions table goes away under the running app: every read of a session fails. */
  const breakSessions = () => t.database.db.schema.renameTable('sessions', 'sessions_unreadable');

  it('signed in, the authorization request gets its code', async () => {
    const response = await inject(t, 'GET', authorizeUrl, cookie);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toMatch(/^https:\/\/web\.example\.com\/callback\?code=/);
  });

  it('the authorization request answers 500 with the error logged, not the sign-in page', async () => {
    const logged = vi.spyOn(t.app.logger, 'error');
    await breakSessions();
    const response = await inject(t, 'GET', authorizeUrl, cookie);
    expect(response.statusCode).toBe(500);
    expect(response.headers.location).toBeUndefined();
    expect(response.json()).toMatchObject({ error: 'server_error' });
    const [fields, message] = logged.mock.calls[0] as [{ err: unknown; path: string }, string];
    expect(message).toBe('request failed');
    expect(fields.path).toBe('/oauth2/authorize');
    expect(fields.err).toBeInstanceOf(Error);
  });

  it('the logout request answers 500 as well, not the signed-out page', async () => {
    await breakSessions();
    const response = await inject(t, 'GET', '/oauth2/logout', cookie);
    expect(response.statusCode).toBe(500);
  });
});
