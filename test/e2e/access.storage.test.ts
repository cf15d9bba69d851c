import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../support/databases.js';
import { testClient, testUser } from '../support/config-fixture.js';
import { joinGroup } from '../support/group-members.js';
import { CookieJar, locationOf } from './support/cookie-jar.js';
import { startIdp, type RunningIdp } from './support/start-idp.js';

const password = 'correct horse battery staple';
const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/**
 * The access step over HTTP on both engines (docs/oidc.md, "Interaction:
 * the sign-in steps"): a user outside `clients[].access` goes to
 * /access-denied, "Back to" answers the client with access_denied and its
 * state, prompt=none answers so at once, and each refusal is one event.
 */
describe.each(databaseKinds)('the access step on %s', (kind) => {
  let idp: RunningIdp;

  const authorizeUrl = (extra: Record<string, string> = {}) =>
    new URL(
      `${idp.url}/oauth2/authorize?${new URLSearchParams({
        client_id: 'grafana',
        redirect_uri: 'https://grafana.example.com/callback',
        response_type: 'code',
        scope: 'openid email',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 'st-1',
        ...extra,
      })}`,
    );

  async function signedIn(email: string) {
    const jar = new CookieJar();
    const response = await jar.fetch(`${idp.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: idp.url },
      body: JSON.stringify({ email, password }),
    });
    // A sign-in through the API has no client yet: the access step lets it pass.
    expect(response.status).toBe(200);
    return jar;
  }
  const denials = async () => {
    const storage = idp.database.storage;
    const { events } = await storage.repositories.events.list(storage.db, {
      type: 'access.denied',
      page: 1,
      pageSize: 50,
    });
    return events.map((e) => `${e.actor} ${e.clientId}`);
  };

  beforeAll(async () => {
    idp = await startIdp(kind, {
      users: [testUser({ sub: 'alice' }), testUser({ sub: 'bob' })],
      groups: [{ id: 'sre', name: 'SRE', description: null, upstream: [], members: ['alice'] }],
      clients: [
        testClient({
          clientId: 'grafana',
          name: 'Grafana',
          skipConsent: true,
          access: { groups: ['sre'], roles: null, secondFactor: null },
        }),
      ],
    });
    await joinGroup(idp.database.storage, 'sre', ['alice']);
  });
  afterAll(() => idp.stop());

  it('lets a member through to the client', async () => {
    const jar = await signedIn('alice@example.com');
    const callback = locationOf(await jar.fetch(authorizeUrl()), idp.url);
    expect(callback.origin + callback.pathname).toBe('https://grafana.example.com/callback');
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(callback.searchParams.get('state')).toBe('st-1');
  });

  it('sends anyone else to /access-denied once, whose "Back to" answers access_denied with the state', async () => {
    const before = (await denials()).length;
    const jar = await signedIn('bob@example.com');
    const page = locationOf(await jar.fetch(authorizeUrl()), idp.url);
    expect(page.pathname).toBe('/access-denied');
    const returnTo = page.searchParams.get('return_to')!;
    expect(returnTo).toBe(authorizeUrl().pathname + authorizeUrl().search);
    expect(await denials()).toHaveLength(before + 1);

    // Showing the page again records nothing more.
    for (let i = 0; i < 2; i += 1) {
      const shown = await jar.fetch(page);
      expect(shown.status).toBe(200);
      expect(await shown.text()).toContain('<h1>bob@example.com has no access to Grafana</h1>');
    }
    expect(await denials()).toHaveLength(before + 1);

    const back = new URL(`${returnTo}&access_denied=true`, idp.url);
    const answer = locationOf(await jar.fetch(back), idp.url);
    expect(answer.origin + answer.pathname).toBe('https://grafana.example.com/callback');
    expect(Object.fromEntries(answer.searchParams)).toMatchObject({
      error: 'access_denied',
      state: 'st-1',
      iss: idp.url,
    });
    expect(answer.searchParams.get('code')).toBeNull();
    const recorded = await denials();
    expect(recorded).toHaveLength(before + 1);
    expect(recorded[0]).toBe('bob grafana');
  });

  it('answers prompt=none with access_denied at once, and records it', async () => {
    const before = (await denials()).length;
    const jar = await signedIn('bob@example.com');
    const answer = locationOf(await jar.fetch(authorizeUrl({ prompt: 'none', state: 'quiet' })), idp.url);
    expect(answer.origin).toBe('https://grafana.example.com');
    expect(answer.searchParams.get('error')).toBe('access_denied');
    expect(answer.searchParams.get('state')).toBe('quiet');
    expect(await denials()).toHaveLength(before + 1);
  });

  it('makes access_denied=true end even an allowed request, gaining nothing', async () => {
    const jar = await signedIn('alice@example.com');
    const answer = locationOf(await jar.fetch(authorizeUrl({ access_denied: 'true' })), idp.url);
    expect(answer.searchParams.get('error')).toBe('access_denied');
  });
});
