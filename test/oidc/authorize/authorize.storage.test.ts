import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases.js';
import { testClient, testConfig, testUser } from '../../support/config-fixture.js';
import { applyConfig } from '../../../src/gitops/index.js';
import {
  authorize,
  type AuthorizeDeps,
  type AuthorizeOutcome,
  type AuthorizeSession,
} from '../../../src/oidc/authorize/index.js';
import { hashOpaqueToken } from '../../../src/oidc/tokens/index.js';
import { createAuthorizeDeps } from '../../../src/oidc/authorize/create-authorize-deps.js';
import { pino } from 'pino';
import { createEventLog } from '../../../src/events/index.js';
import { createUserTerms } from '../../../src/accounts/user-terms.js';
import { authorizationRequestReader } from '../../../src/oidc/authorize/read-authorization-request.js';
import { createConsentService } from '../../../src/interaction/consent-service.js';
import { createAccessDenial } from '../../../src/interaction/access-denial.js';
import { createUserGroupReader } from '../../../src/access/user-groups.js';
import { createSignInDeps } from '../../../src/interaction/sign-in-deps.js';
import { noRegisteredFactors } from '../../interaction/sign-in-fixtures.js';
import { knexClientRepository } from '../../../src/storage/knex/clients.js';
import { knexConsentRepository } from '../../../src/storage/knex/consents.js';
import { knexGroupRepository } from '../../../src/storage/knex/groups.js';
import { knexAuthorizationCodeRepository } from '../../../src/storage/knex/authorization-codes.js';
import { knexPushedAuthorizationRequestRepository } from '../../../src/storage/knex/pushed-authorization-requests.js';
import { createPushedRequests } from '../../../src/oidc/authorize/pushed-requests.js';
import type { Clock } from '../../../src/clock.js';
import type { UserRecord } from '../../../src/model/index.js';

const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const issuer = 'http://localhost:8080';

const request: Record<string, string> = {
  client_id: 'web',
  redirect_uri: 'https://web.example.com/callback',
  response_type: 'code',
  scope: 'openid email',
  code_challenge: challenge,
  code_challenge_method: 'S256',
  state: 'st',
  nonce: 'nn',
};

function location(outcome: AuthorizeOutcome): string {
  if (outcome.kind !== 'interaction') throw new Error(`expected an interaction, got ${JSON.stringify(outcome)}`);
  return outcome.location;
}

function returnToOf(outcome: AuthorizeOutcome): string {
  return new URL(location(outcome), issuer).searchParams.get('return_to') ?? '';
}

/** The authorization request a return_to points back at. */
function paramsOf(returnTo: string): Record<string, string> {
  return Object.fromEntries(new URL(returnTo, issuer).searchParams);
}

describe.each(databaseKinds)('the authorization endpoint on %s', (kind) => {
  let t: TestDatabase;
  let deps: AuthorizeDeps;
  const clock: Clock & { time: number } = {
    time: 1_000_000_000_000,
    now() {
      return this.time;
    },
  };
  const aliceUser: UserRecord = {
    sub: 'alice',
    managedBy: 'config',
    email: 'alice@example.com',
    role: 'user',
    emailVerified: true,
    emailVerificationRequired: false,
    passwordHash: null,
    secondFactorRequired: false,
    name: null,
    givenName: null,
    familyName: null,
    locale: null,
    deletedAt: null,
    createdAt: 0,
    updatedAt: 0,
  };
  const alice: AuthorizeSession = {
    sub: 'alice',
    authTime: clock.time - 60_000,
    amr: ['pwd', 'otp'],
    sessionId: 'sid-hash',
    sid: 'public-sid',
    user: aliceUser,
  };

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    const config = testConfig({
      users: [testUser({ sub: 'alice' })],
      clients: [
        testClient({ clientId: 'web' }),
        testClient({ clientId: 'first-party', skipConsent: true }),
        testClient({ clientId: 'admin-console', access: { groups: null, roles: ['admin'], secondFactor: null } }),
        testClient({ clientId: 'spa', clientSecret: null, tokenEndpointAuthMethod: 'none', requirePkce: false }),
      ],
    });
    await applyConfig(t.storage, config);
    deps = createAuthorizeDeps({
      db: t.tx,
      clients: knexClientRepository,
      codes: knexAuthorizationCodeRepository,
      signIn: createSignInDeps({
        db: t.tx,
        consents: knexConsentRepository,
        groups: knexGroupRepository,
        events: createEventLog({ storage: t.storage, clock }),
        factors: noRegisteredFactors,
        terms: createUserTerms({ storage: t.storage, events: createEventLog({ storage: t.storage, clock }), clock }),
        auth: config.auth,
        clock,
      }),
      pushedRequests: createPushedRequests({
        db: t.tx,
        repository: knexPushedAuthorizationRequestRepository,
        clock,
        sealKey: 'a key for the tests only',
      }),
      config,
      clock,
    });
  });
  afterAll(() => t.destroy());

  it('shows an unknown client or an unregistered redirect URI as an error page, never a redirect', async () => {
    const unknown = await authorize({ params: { ...request, client_id: 'nobody' }, session: alice }, deps);
    expect(unknown).toMatchObject({ kind: 'error_page', error: { error: 'invalid_client' } });
    const mismatch = await authorize(
      { params: { ...request, redirect_uri: 'https://evil.example/cb' }, session: alice },
      deps,
    );
    expect(mismatch).toMatchObject({ kind: 'error_page', error: { error: 'invalid_request' } });
  });

  it('sends other errors to the client with state and iss', async () => {
    const outcome = await authorize(
      {
        params: {
          ...request,
          client_id: 'spa',
          redirect_uri: 'https://spa.example.com/callback',
          code_challenge: undefined,
          code_challenge_method: undefined,
        },
        session: alice,
      },
      deps,
    );
    expect(outcome).toEqual({
      kind: 'client_response',
      target: { redirectUri: 'https://spa.example.com/callback', responseMode: 'query', state: 'st' },
      params: {
        error: 'invalid_request',
        error_description: 'PKCE is required: send a code_challenge with code_challenge_method S256.',
        state: 'st',
        iss: issuer,
      },
    });
  });

  it('sends a browser without a session to /login with a return_to back to the same request', async () => {
    const outcome = await authorize({ params: { ...request, login_hint: 'alice@example.com' }, session: null }, deps);
    const url = new URL(location(outcome), issuer);
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('login_hint')).toBe('alice@example.com');
    expect(paramsOf(returnToOf(outcome))).toEqual({
      ...request,
      login_hint: 'alice@example.com',
      auth_after: String(clock.now()),
    });
  });

  it('sends the session of a user who must verify their e-mail back to /login, and answers login_required under prompt=none', async () => {
    const unverified = { ...alice, user: { ...aliceUser, emailVerificationRequired: true, emailVerified: false } };
    const params = { ...request, client_id: 'first-party', redirect_uri: 'https://first-party.example.com/callback' };
    const outcome = await authorize({ params, session: unverified }, deps);
    expect(new URL(location(outcome), issuer).pathname).toBe('/login');
    expect(paramsOf(returnToOf(outcome))).toEqual(params);
    const none = await authorize({ params: { ...params, prompt: 'none' }, session: unverified }, deps);
    expect(none).toMatchObject({
      kind: 'client_response',
      params: { error: 'login_required', error_description: 'The user must verify their e-mail address.' },
    });
    // Verified, the same request gets its code (the client skips consent).
    expect((await authorize({ params, session: alice }, deps)).kind).toBe('client_response');
  });

  it('answers prompt=none without a session or consent with login_required and consent_required', async () => {
    const noSession = await authorize({ params: { ...request, prompt: 'none' }, session: null }, deps);
    expect(noSession).toMatchObject({
      kind: 'client_response',
      params: { error: 'login_required', state: 'st', iss: issuer },
    });
    const noConsent = await authorize({ params: { ...request, prompt: 'none' }, session: alice }, deps);
    expect(noConsent).toMatchObject({ kind: 'client_response', params: { error: 'consent_required' } });
  });

  it('asks for consent, records it, then issues a code bound to the request', async () => {
    const consent = createConsentService({
      storage: t.storage,
      events: createEventLog({ storage: t.storage, logger: pino({ level: 'silent' }), clock }),
      readRequest: authorizationRequestReader(deps),
      confirmDevice: () => Promise.resolve(false),
      userGroups: createUserGroupReader({ db: t.tx, groups: t.storage.repositories.groups }),
      clock,
    });
    const first = await authorize({ params: request, session: alice }, deps);
    expect(new URL(location(first), issuer).pathname).toBe('/consent');
    const returnTo = returnToOf(first);
    expect(await consent.describe(returnTo, alice)).toEqual({
      clientId: 'web',
      clientName: 'Client web',
      redirectUri: request.redirect_uri,
      device: false,
      scopes: [
        { scope: 'openid', description: 'Sign you in with your account' },
        { scope: 'email', description: 'See your e-mail address' },
      ],
      groups: null,
      alreadyGranted: [],
    });
    const { redirectTo } = await consent.decide(returnTo, 'allow', alice, { clientAddress: '127.0.0.1' });
    const done = await authorize({ params: paramsOf(redirectTo), session: alice }, deps);
    if (done.kind !== 'client_response') throw new Error(JSON.stringify(done));
    expect(Object.keys(done.params)).toEqual(['code', 'state', 'iss']);
    expect(done.params).toMatchObject({ state: 'st', iss: issuer });
    const stored = await knexAuthorizationCodeRepository.consume(t.tx, hashOpaqueToken(done.params.code), clock.now());
    expect(stored?.record).toMatchObject({
      clientId: 'web',
      sub: 'alice',
      redirectUri: request.redirect_uri,
      scopes: ['openid', 'email'],
      nonce: 'nn',
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
      authTime: alice.authTime,
      amr: ['pwd', 'otp'],
      sessionId: 'sid-hash',
      sid: 'public-sid',
      expiresAt: clock.now() + 60_000,
    });
    // Granted scopes need no second consent; a new scope does.
    expect((await authorize({ params: request, session: alice }, deps)).kind).toBe('client_response');
    expect(
      (await authorize({ params: { ...request, scope: 'openid email profile' }, session: alice }, deps)).kind,
    ).toBe('interaction');
  });

  it('answers access_denied after Deny', async () => {
    const consent = createConsentService({
      storage: t.storage,
      events: createEventLog({ storage: t.storage, logger: pino({ level: 'silent' }), clock }),
      readRequest: authorizationRequestReader(deps),
      confirmDevice: () => Promise.resolve(false),
      userGroups: createUserGroupReader({ db: t.tx, groups: t.storage.repositories.groups }),
      clock,
    });
    const params = { ...request, scope: 'openid profile' };
    const returnTo = returnToOf(await authorize({ params, session: alice }, deps));
    const { redirectTo } = await consent.decide(returnTo, 'deny', alice, { clientAddress: '127.0.0.1' });
    const denied = await authorize({ params: paramsOf(redirectTo), session: alice }, deps);
    expect(denied).toMatchObject({ kind: 'client_response', params: { error: 'access_denied', state: 'st' } });
  });

  it('refuses a consent return_to that is not an authorization request of this server', async () => {
    const consent = createConsentService({
      storage: t.storage,
      events: createEventLog({ storage: t.storage, logger: pino({ level: 'silent' }), clock }),
      readRequest: authorizationRequestReader(deps),
      confirmDevice: () => Promise.resolve(false),
      userGroups: createUserGroupReader({ db: t.tx, groups: t.storage.repositories.groups }),
      clock,
    });
    for (const returnTo of [
      '//evil.example/oauth2/authorize',
      'https://evil.example/',
      '/login',
      `/oauth2/authorize?client_id=web`,
    ]) {
      await expect(consent.decide(returnTo, 'allow', alice, { clientAddress: '127.0.0.1' })).rejects.toMatchObject({
        status: 400,
        code: 'INVALID_RETURN_TO',
      });
    }
  });

  it("sends a user outside the client's access to /access-denied, whose Back to ends the request with access_denied", async () => {
    const params = {
      ...request,
      client_id: 'admin-console',
      redirect_uri: 'https://admin-console.example.com/callback',
    };
    const outcome = await authorize({ params, session: alice }, deps);
    expect(new URL(location(outcome), issuer).pathname).toBe('/access-denied');
    const returnTo = returnToOf(outcome);
    expect(paramsOf(returnTo)).toEqual(params);

    const denial = createAccessDenial({ readRequest: authorizationRequestReader(deps), signIn: deps.signIn });
    const described = await denial.describe(returnTo, aliceUser);
    expect(described).toMatchObject({ clientName: 'Client admin-console', allowed: false });
    expect(await denial.describe(returnTo, { ...aliceUser, role: 'admin' })).toMatchObject({ allowed: true });
    expect(await denial.describe(`//evil.example${returnTo}`, aliceUser)).toBeNull();
    expect(await denial.describe('/login', aliceUser)).toBeNull();

    const back = await authorize({ params: paramsOf(described!.backTo), session: alice }, deps);
    expect(back).toMatchObject({ kind: 'client_response', params: { error: 'access_denied', state: 'st' } });
    const quiet = await authorize({ params: { ...params, prompt: 'none' }, session: alice }, deps);
    expect(quiet).toMatchObject({ kind: 'client_response', params: { error: 'access_denied', state: 'st' } });
  });

  it('skips consent for skip_consent clients but not when prompt=consent asks', async () => {
    const params = { ...request, client_id: 'first-party', redirect_uri: 'https://first-party.example.com/callback' };
    expect((await authorize({ params, session: alice }, deps)).kind).toBe('client_response');
    const forced = await authorize({ params: { ...params, prompt: 'consent' }, session: alice }, deps);
    expect(paramsOf(returnToOf(forced)).prompt).toBeUndefined();
  });

  it('forces a new sign-in for prompt=login and a too old one for max_age', async () => {
    const params = { ...request, client_id: 'first-party', redirect_uri: 'https://first-party.example.com/callback' };
    const login = await authorize({ params: { ...params, prompt: 'login' }, session: alice }, deps);
    const back = paramsOf(returnToOf(login));
    expect(back).toEqual({ ...params, auth_after: String(clock.now()) });
    // Coming back with the old sign-in asks again; with a newer one, a code.
    expect((await authorize({ params: back, session: alice }, deps)).kind).toBe('interaction');
    const fresh = { ...alice, authTime: clock.now() + 1 };
    expect((await authorize({ params: back, session: fresh }, deps)).kind).toBe('client_response');

    expect((await authorize({ params: { ...params, max_age: '30' }, session: alice }, deps)).kind).toBe('interaction');
    expect((await authorize({ params: { ...params, max_age: '120' }, session: alice }, deps)).kind).toBe(
      'client_response',
    );
    const none = await authorize({ params: { ...params, max_age: '30', prompt: 'none' }, session: alice }, deps);
    expect(none).toMatchObject({ kind: 'client_response', params: { error: 'login_required' } });
  });

  it('does not loop on max_age=0: a sign-in after the request satisfies it', async () => {
    const params = {
      ...request,
      client_id: 'first-party',
      redirect_uri: 'https://first-party.example.com/callback',
      max_age: '0',
    };
    const back = paramsOf(returnToOf(await authorize({ params, session: alice }, deps)));
    expect(back.auth_after).toBe(String(clock.now()));
    clock.time += 5_000;
    const signedInMeanwhile = { ...alice, authTime: clock.now() - 2_000 };
    expect((await authorize({ params: back, session: signedInMeanwhile }, deps)).kind).toBe('client_response');
    // The old sign-in still does not.
    expect((await authorize({ params: back, session: alice }, deps)).kind).toBe('interaction');
  });

  describe('a pushed request (RFC 9126)', () => {
    const consentService = () =>
      createConsentService({
        storage: t.storage,
        events: createEventLog({ storage: t.storage, logger: pino({ level: 'silent' }), clock }),
        readRequest: authorizationRequestReader(deps),
        userGroups: createUserGroupReader({ db: t.tx, groups: t.storage.repositories.groups }),
        clock,
        confirmDevice: () => Promise.resolve(false),
      });

    it('is claimed once, then carried sealed through the pages, its satisfied prompt values dropped', async () => {
      const pushed = { ...request, scope: 'openid profile', prompt: 'login consent' };
      const { requestUri } = await deps.pushedRequests.push('web', pushed);
      const first = await authorize({ params: { client_id: 'web', request_uri: requestUri }, session: alice }, deps);
      expect(new URL(location(first), issuer).pathname).toBe('/login');
      const back = paramsOf(returnToOf(first));
      expect(back).toMatchObject({ ...pushed, prompt: 'consent', auth_after: String(clock.now()) });
      expect(back.request_uri).toBeUndefined();
      expect(back.pushed_request).toEqual(expect.any(String));

      // A second use of the request_uri, even with the same client, is refused on a page.
      const again = await authorize({ params: { client_id: 'web', request_uri: requestUri }, session: alice }, deps);
      expect(again).toMatchObject({ kind: 'error_page', error: { error: 'invalid_request_uri' } });

      // Signed in since: the consent page, then a Deny ends the request at the client.
      const signedIn = { ...alice, authTime: clock.now() };
      const second = await authorize({ params: back, session: signedIn }, deps);
      expect(new URL(location(second), issuer).pathname).toBe('/consent');
      const { redirectTo } = await consentService().decide(returnToOf(second), 'deny', signedIn, {
        clientAddress: '127.0.0.1',
      });
      const denied = await authorize({ params: paramsOf(redirectTo), session: signedIn }, deps);
      expect(denied).toMatchObject({ kind: 'client_response', params: { error: 'access_denied', state: 'st' } });
    });

    it('takes no prompt value the pushed request did not have from the path back', async () => {
      const { requestUri } = await deps.pushedRequests.push('first-party', {
        ...request,
        client_id: 'first-party',
        redirect_uri: 'https://first-party.example.com/callback',
        max_age: '0',
      });
      const first = await authorize(
        { params: { client_id: 'first-party', request_uri: requestUri }, session: alice },
        deps,
      );
      const back = { ...paramsOf(returnToOf(first)), prompt: 'login consent select_account', consent_denied: 'false' };
      const done = await authorize({ params: back, session: { ...alice, authTime: clock.now() } }, deps);
      expect(done).toMatchObject({ kind: 'client_response', params: { state: 'st' } });
    });

    it('needs a client_id with its request_uri', async () => {
      const { requestUri } = await deps.pushedRequests.push('web', request);
      const outcome = await authorize({ params: { request_uri: requestUri }, session: alice }, deps);
      expect(outcome).toMatchObject({ kind: 'error_page', error: { error: 'invalid_request' } });
      // Refused before the claim: the request_uri is still good.
      const claimed = await authorize({ params: { client_id: 'web', request_uri: requestUri }, session: alice }, deps);
      expect(claimed.kind).not.toBe('error_page');
    });

    it('ends the way through the pages after an hour', async () => {
      const { requestUri } = await deps.pushedRequests.push('web', { ...request, prompt: 'login' });
      const first = await authorize({ params: { client_id: 'web', request_uri: requestUri }, session: alice }, deps);
      const back = paramsOf(returnToOf(first));
      const start = clock.time;
      clock.time += 60 * 60 * 1000;
      try {
        const late = await authorize({ params: back, session: alice }, deps);
        expect(late).toMatchObject({ kind: 'error_page', error: { error: 'invalid_request_uri' } });
      } finally {
        clock.time = start;
      }
    });

    it('is never claimed by the consent page reading a return_to', async () => {
      const { requestUri } = await deps.pushedRequests.push('web', request);
      const returnTo = `/oauth2/authorize?${new URLSearchParams({ client_id: 'web', request_uri: requestUri }).toString()}`;
      await expect(consentService().describe(returnTo, alice)).rejects.toMatchObject({ code: 'INVALID_RETURN_TO' });
      const claimed = await authorize({ params: { client_id: 'web', request_uri: requestUri }, session: alice }, deps);
      expect(claimed.kind).not.toBe('error_page');
    });

    it('refuses a request_uri that has expired (60 seconds)', async () => {
      const { requestUri, expiresIn } = await deps.pushedRequests.push('web', request);
      expect(expiresIn).toBe(60);
      const start = clock.time;
      clock.time += 60_000;
      try {
        const late = await authorize({ params: { client_id: 'web', request_uri: requestUri }, session: alice }, deps);
        expect(late).toMatchObject({ kind: 'error_page', error: { error: 'invalid_request_uri' } });
      } finally {
        clock.time = start;
      }
    });
  });

  it('sends prompt=select_account to the sign-in page with the account choice', async () => {
    const params = { ...request, client_id: 'first-party', redirect_uri: 'https://first-party.example.com/callback' };
    const outcome = await authorize({ params: { ...params, prompt: 'select_account' }, session: alice }, deps);
    const url = new URL(location(outcome), issuer);
    expect(url.searchParams.get('select_account')).toBe('true');
    expect(paramsOf(returnToOf(outcome))).toEqual(params);
  });
});
