import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../support/databases.js';
import { testClient, testTerm, testUser } from '../support/config-fixture.js';
import { applyConfig } from '../../src/gitops/index.js';
import { CookieJar, locationOf } from './support/cookie-jar.js';
import { startIdp, type RunningIdp } from './support/start-idp.js';

const password = 'correct horse battery staple';
const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const json = { 'content-type': 'application/json' };

/**
 * The terms of service in the sign-in (the terms step), the Terms API and
 * the operators' counts, over HTTP on both engines.
 */
describe.each(databaseKinds)('terms of service on %s', (kind) => {
  let idp: RunningIdp;
  const tos = testTerm({
    id: 'tos',
    required: true,
    consentMode: 'explicit',
    version: '1',
    content: {
      en: { title: 'Terms of Service', type: 'link', content: 'https://example.com/tos' },
      de: { title: 'Nutzungsbedingungen', type: 'link', content: 'https://example.com/agb' },
    },
  });
  const privacy = testTerm({
    id: 'privacy',
    required: false,
    consentMode: 'implicit',
    version: 'a',
    content: { en: { title: 'Privacy', type: 'text', content: 'We keep <b>little</b>.' } },
  });
  const news = testTerm({ id: 'news', required: false, consentMode: 'explicit', version: '1' });

  const authorizeUrl = (extra: Record<string, string> = {}) =>
    `${idp.url}/oauth2/authorize?${new URLSearchParams({
      client_id: 'web',
      redirect_uri: 'https://web.example.com/callback',
      response_type: 'code',
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 's',
      ...extra,
    })}`;

  async function signedIn(email = 'alice@example.com') {
    const jar = new CookieJar();
    const response = await jar.fetch(`${idp.url}/api/auth/login`, {
      method: 'POST',
      headers: { ...json, origin: idp.url },
      body: JSON.stringify({ email, password }),
    });
    expect(response.status).toBe(200);
    return jar;
  }
  const accept = (jar: CookieJar, terms: { id: string; version: string }[]) =>
    jar.fetch(`${idp.url}/api/terms/accept`, {
      method: 'POST',
      headers: { ...json, origin: idp.url },
      body: JSON.stringify({ terms }),
    });
  const events = async (type: string) => {
    const { events: rows } = await idp.database.storage.repositories.events.list(idp.database.storage.db, {
      type: type as 'terms.accepted',
      page: 1,
      pageSize: 50,
    });
    return rows;
  };

  beforeAll(async () => {
    idp = await startIdp(kind, {
      users: [
        testUser({ sub: 'alice' }),
        testUser({ sub: 'bob', email: 'bob@example.com' }),
        testUser({ sub: 'root', email: 'root@example.com', role: 'admin' }),
      ],
      clients: [testClient({ clientId: 'web', skipConsent: true })],
      terms: [tos, privacy, news],
      i18n: { defaultLocale: 'en', locales: ['en', 'de'] },
    });
  });
  afterAll(() => idp.stop());

  it('lists the terms in the best locale, without acceptance for a visitor', async () => {
    const response = await fetch(`${idp.url}/api/terms`, { headers: { 'accept-language': 'de-CH, en;q=0.5' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      terms: [
        {
          id: 'news',
          version: '1',
          required: false,
          consent_mode: 'explicit',
          locale: 'en',
          title: 'Terms of Service',
          type: 'link',
          content: 'https://example.com/tos',
          accepted_version: null,
          accepted_at: null,
        },
        {
          id: 'privacy',
          version: 'a',
          required: false,
          consent_mode: 'implicit',
          locale: 'en',
          title: 'Privacy',
          type: 'text',
          content: 'We keep <b>little</b>.',
          accepted_version: null,
          accepted_at: null,
        },
        {
          id: 'tos',
          version: '1',
          required: true,
          consent_mode: 'explicit',
          locale: 'de',
          title: 'Nutzungsbedingungen',
          type: 'link',
          content: 'https://example.com/agb',
          accepted_version: null,
          accepted_at: null,
        },
      ],
    });
    const english = (await (
      await fetch(`${idp.url}/api/terms?locale=en`, { headers: { 'accept-language': 'de' } })
    ).json()) as { terms: { title: string }[] };
    expect(english.terms[2].title).toBe('Terms of Service');
  });

  it('stops the sign-in on /terms until the required term is accepted, then lets the request through', async () => {
    const jar = await signedIn();
    const first = locationOf(await jar.fetch(authorizeUrl()), idp.url);
    expect(first.pathname).toBe('/terms');
    const returnTo = first.searchParams.get('return_to')!;
    expect(returnTo.startsWith('/oauth2/authorize?')).toBe(true);

    expect((await jar.fetch(authorizeUrl({ prompt: 'none' }))).headers.get('location')).toContain(
      'error=interaction_required',
    );

    const accepted = await accept(jar, [
      { id: 'tos', version: '1' },
      { id: 'privacy', version: 'a' },
    ]);
    expect(accepted.status).toBe(200);
    const body = (await accepted.json()) as {
      terms: { id: string; accepted_version: string | null; accepted_at: string | null }[];
    };
    expect(body.terms.map((t) => [t.id, t.accepted_version])).toEqual([
      ['news', null],
      ['privacy', 'a'],
      ['tos', '1'],
    ]);
    expect(body.terms[2].accepted_at).toMatch(/Z$/);

    const callback = locationOf(await jar.fetch(new URL(returnTo, idp.url)), idp.url);
    expect(`${callback.origin}${callback.pathname}`).toBe('https://web.example.com/callback');
    expect(callback.searchParams.get('code')).toBeTruthy();

    const recorded = await events('terms.accepted');
    expect(recorded.filter((e) => e.actor === 'alice').map((e) => e.detail)).toEqual([
      { terms: ['tos@1', 'privacy@a'] },
    ]);
    // Accepting the same versions again records nothing new.
    expect((await accept(jar, [{ id: 'tos', version: '1' }])).status).toBe(200);
    expect((await events('terms.accepted')).filter((e) => e.actor === 'alice')).toHaveLength(1);
  });

  it('ends the request with access_denied when the user declines', async () => {
    const jar = await signedIn('bob@example.com');
    const declined = locationOf(await jar.fetch(authorizeUrl({ terms_declined: 'true' })), idp.url);
    expect(declined.searchParams.get('error')).toBe('access_denied');
  });

  it('refuses an unknown term, a version that is not current, nothing, and a visitor, recording nothing', async () => {
    const jar = await signedIn('bob@example.com');
    const unknown = await accept(jar, [
      { id: 'tos', version: '1' },
      { id: 'nope', version: '1' },
    ]);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      code: 'TERMS_NOT_FOUND',
      message: 'There are no terms with the id "nope".',
    });
    const stale = await accept(jar, [{ id: 'tos', version: '0' }]);
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { code: string }).code).toBe('TERMS_VERSION_MISMATCH');
    for (const body of [{ terms: [] }, {}, { terms: [{ id: 'tos' }] }, { terms: 'tos' }]) {
      const refused = await jar.fetch(`${idp.url}/api/terms/accept`, {
        method: 'POST',
        headers: { ...json, origin: idp.url },
        body: JSON.stringify(body),
      });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { code: string }).code).toBe('VALIDATION_ERROR');
    }
    const visitor = await fetch(`${idp.url}/api/terms/accept`, {
      method: 'POST',
      headers: { ...json, origin: idp.url },
      body: JSON.stringify({ terms: [{ id: 'tos', version: '1' }] }),
    });
    expect(visitor.status).toBe(401);
    const mine = (await (await jar.fetch(`${idp.url}/api/terms`)).json()) as {
      terms: { accepted_version: string | null }[];
    };
    expect(mine.terms.every((t) => t.accepted_version === null)).toBe(true);
  });

  it('asks again after a new version is applied, keeps the history, and counts acceptance for operators', async () => {
    const admin = await signedIn('root@example.com');
    const status = async () =>
      ((await (await admin.fetch(`${idp.url}/api/admin/terms`)).json()) as { terms: unknown[] }).terms;
    expect(await status()).toEqual([
      { id: 'news', version: '1', required: false, accepted: 0, pending: 3 },
      { id: 'privacy', version: 'a', required: false, accepted: 1, pending: 2 },
      { id: 'tos', version: '1', required: true, accepted: 1, pending: 2 },
    ]);

    // The file's new version, applied by `idp apply` (any process): the running server reads the terms from the database.
    await applyConfig(idp.database.storage, {
      ...idp.config,
      terms: [{ ...tos, version: '2' }, { ...privacy, version: 'b' }, news],
    });

    const jar = await signedIn();
    expect(locationOf(await jar.fetch(authorizeUrl()), idp.url).pathname).toBe('/terms');
    expect((await jar.fetch(authorizeUrl({ prompt: 'none' }))).headers.get('location')).toContain(
      'error=interaction_required',
    );
    expect((await accept(jar, [{ id: 'tos', version: '1' }])).status).toBe(409);
    expect((await accept(jar, [{ id: 'tos', version: '2' }])).status).toBe(200);
    // Only the implicit term's new version is missing: under prompt=none going on accepts it.
    const silent = locationOf(await jar.fetch(authorizeUrl({ prompt: 'none' })), idp.url);
    expect(silent.searchParams.get('code')).toBeTruthy();
    const history = await idp.database.storage.repositories.termAcceptances.listBySub(idp.database.storage.db, 'alice');
    expect(history.map((a) => `${a.termId}@${a.version}`)).toEqual(
      expect.arrayContaining(['tos@1', 'privacy@a', 'tos@2', 'privacy@b']),
    );
    expect(await status()).toEqual([
      { id: 'news', version: '1', required: false, accepted: 0, pending: 3 },
      { id: 'privacy', version: 'b', required: false, accepted: 1, pending: 2 },
      { id: 'tos', version: '2', required: true, accepted: 1, pending: 2 },
    ]);
    expect((await jar.fetch(`${idp.url}/api/admin/terms`)).status).toBe(403);
  });
});
