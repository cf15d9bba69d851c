import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { applyConfig } from '../../src/gitops/index.js';
import { testClient, testConfig, testUser } from '../support/config-fixture.js';
import { CookieJar, locationOf } from './support/cookie-jar.js';
import { RelyingParty } from './support/relying-party.js';
import { freePort, startIdp, type RunningIdp } from './support/start-idp.js';

/**
 * Issue 10 item 2: with tokens.signing_alg ES256, a relying party on its
 * defaults (RS256, OIDC Core 15.1 and Registration 2) still signs in, and
 * a client registered with id_token_signed_response_alg ES256 gets ES256
 * ID tokens; discovery lists both algorithms. openid-client holds each
 * client to its algorithm; jose stands in for the RS256-only libraries
 * (openid-client 5, go-oidc, express-openid-connect, Auth.js).
 */
describe('ID token algorithms per client, with tokens.signing_alg ES256', () => {
  let idp: RunningIdp;
  let classic: RelyingParty;
  let modern: RelyingParty;

  beforeAll(async () => {
    classic = new RelyingParty(await freePort(), {
      clientId: 'classic',
      clientSecret: testClient({ clientId: 'classic' }).clientSecret,
    });
    modern = new RelyingParty(await freePort(), {
      clientId: 'modern',
      clientSecret: testClient({ clientId: 'modern' }).clientSecret,
      metadata: { id_token_signed_response_alg: 'ES256' },
    });
    idp = await startIdp('sqlite', {
      tokens: { ...testConfig().tokens, signingAlg: 'ES256' },
      users: [testUser({ sub: 'alice' })],
      clients: [
        testClient({ clientId: 'classic', redirectUris: [classic.redirectUri], skipConsent: true }),
        testClient({
          clientId: 'modern',
          redirectUris: [modern.redirectUri],
          skipConsent: true,
          idTokenSignedResponseAlg: 'ES256',
        }),
      ],
    });
    await classic.discover(idp.url);
    await modern.discover(idp.url);
  });
  afterAll(() => idp.stop());

  async function signIn(rp: RelyingParty) {
    const jar = new CookieJar();
    const login = await jar.fetch(`${idp.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'alice@example.com', password: 'correct horse battery staple' }),
    });
    expect(login.status).toBe(200);
    const start = await rp.authorizationUrl();
    return rp.finish(locationOf(await jar.fetch(start), start));
  }

  it('lists RS256 and ES256 in discovery and publishes a key of each', async () => {
    const metadata = (await (await fetch(`${idp.url}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    expect(metadata.id_token_signing_alg_values_supported).toEqual(['RS256', 'ES256']);
    const jwks = (await (await fetch(`${idp.url}/oauth2/jwks`)).json()) as { keys: { alg: string }[] };
    expect(jwks.keys.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
  });

  it('signs in a relying party on its defaults with an RS256 ID token; the access token is ES256', async () => {
    const result = await signIn(classic);
    expect(result.claims).toMatchObject({ iss: idp.url, sub: 'alice', aud: 'classic' });
    expect(decodeProtectedHeader(result.idToken).alg).toBe('RS256');
    const rs256Only = await jwtVerify(result.idToken, createRemoteJWKSet(new URL(`${idp.url}/oauth2/jwks`)), {
      issuer: idp.url,
      audience: 'classic',
      algorithms: ['RS256'],
    });
    expect(rs256Only.payload.sub).toBe('alice');
    expect(decodeProtectedHeader(result.accessToken)).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    expect(result.userinfo.sub).toBe('alice');
  });

  it('gives an ES256 ID token to the client registered with id_token_signed_response_alg ES256', async () => {
    const result = await signIn(modern);
    expect(result.claims).toMatchObject({ sub: 'alice', aud: 'modern' });
    expect(decodeProtectedHeader(result.idToken).alg).toBe('ES256');
  });

  it('makes the first EdDSA key when a client applied while running asks for it, and lists EdDSA from then on', async () => {
    const edge = new RelyingParty(await freePort(), {
      clientId: 'edge',
      clientSecret: testClient({ clientId: 'edge' }).clientSecret,
      metadata: { id_token_signed_response_alg: 'EdDSA' },
    });
    const edgeClient = testClient({
      clientId: 'edge',
      redirectUris: [edge.redirectUri],
      skipConsent: true,
      idTokenSignedResponseAlg: 'EdDSA',
    });
    await applyConfig(idp.database.storage, { ...idp.config, clients: [...idp.config.clients, edgeClient] });
    await edge.discover(idp.url);
    // The client directory notices the apply within about a second.
    let result;
    for (let attempt = 0; !result; attempt += 1) {
      result = await signIn(edge).catch((error: unknown) => {
        if (attempt >= 20) throw error;
        return new Promise<undefined>((resolve) => setTimeout(resolve, 100));
      });
    }
    expect(decodeProtectedHeader(result.idToken).alg).toBe('EdDSA');
    const metadata = (await (await fetch(`${idp.url}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    expect(metadata.id_token_signing_alg_values_supported).toEqual(['RS256', 'ES256', 'EdDSA']);
  });
});
