import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { applyConfig } from '../../src/gitops/index.js';
import { databaseKinds } from '../support/databases.js';
import { testClient, testConfig } from '../support/config-fixture.js';
import { createTestApp, inject, type TestApp } from '../support/test-app.js';
import { basic } from './support/provider-fixture.js';

/**
 * Small things relying parties and browsers expect (docs/oidc.md, "Metadata"
 * and "UserInfo, revocation, introspection, logout"): a JSON revocation
 * answer, RFC 8414 metadata, a favicon.
 */
describe.each(databaseKinds)('interoperability on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind, {
      clients: [testClient({ clientId: 'web' })],
      branding: { ...testConfig().branding, primaryColor: '#1f6feb' },
    });
    await applyConfig(t.database.storage, t.config);
  });
  afterAll(() => t.destroy());

  it('answers a revocation with {} as application/json (RFC 7009 §2.2)', async () => {
    const response = await t.app.server.inject({
      method: 'POST',
      url: '/oauth2/revoke',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic('web', testClient({ clientId: 'web' }).clientSecret!),
      },
      payload: 'token=unknown-token',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(response.payload)).toEqual({});
  });

  it('serves the RFC 8414 metadata, equal to the OpenID Connect one, with the same caching', async () => {
    const oidcDocument = await inject(t, 'GET', '/.well-known/openid-configuration');
    const oauthDocument = await inject(t, 'GET', '/.well-known/oauth-authorization-server');
    expect(oauthDocument.statusCode).toBe(200);
    expect(oauthDocument.json()).toEqual(oidcDocument.json());
    expect(oauthDocument.headers['cache-control']).toBe(oidcDocument.headers['cache-control']);
    expect(oauthDocument.headers['cache-control']).toBe('public, max-age=300');
  });

  it('lets oauth4webapi discover the server the RFC 8414 way', async () => {
    const issuer = new URL(t.config.server.baseUrl);
    const response = await t.app.server.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' });
    const as = await oauth.processDiscoveryResponse(
      issuer,
      new Response(response.payload, { status: 200, headers: { 'content-type': 'application/json' } }),
    );
    expect(as.issuer).toBe(t.config.server.baseUrl);
    expect(as.pushed_authorization_request_endpoint).toBe(`${t.config.server.baseUrl}/oauth2/par`);
  });

  it('serves a favicon in the accent colour, cacheable', async () => {
    const response = await inject(t, 'GET', '/favicon.ico');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
    expect(response.payload).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(response.payload).toContain('fill="#1f6feb"');
  });

  it('draws the favicon in the built-in accent without a usable branding colour', async () => {
    t.config.branding.primaryColor = 'not a colour';
    try {
      expect((await inject(t, 'GET', '/favicon.ico')).payload).toContain('fill="#2557d6"');
    } finally {
      t.config.branding.primaryColor = '#1f6feb';
    }
  });
});
