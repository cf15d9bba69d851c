import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { applyConfig } from '../../src/gitops/index.js';
import type { ClientConfig, UserConfig } from '../../src/config/types.js';
import { databaseKinds } from '../support/databases.js';
import { testClient, testUser } from '../support/config-fixture.js';
import { seedUser, sessionCookieOf, testPassword } from '../support/test-app.js';
import {
  basic,
  issueCode,
  startOtherInstance,
  startProvider,
  type OtherInstance,
  type Provider,
} from './support/provider-fixture.js';

/**
 * What refresh, userinfo and introspection guarantee under concurrency, on
 * real servers, and on two instances sharing one PostgreSQL database
 * (docs/architecture.md, "Several instances"): a refresh token is redeemed once however many copies arrive
 * together, and a reuse revokes its family; a revocation of any kind refuses
 * every call sent after its answer arrived; a changed user shows at once.
 * No timing: "after" means sent once the response had been awaited.
 */

interface Instance {
  url: string;
}

interface Tokens {
  access_token: string;
  refresh_token: string;
  id_token: string;
}

interface Answer {
  status: number;
  body: Record<string, any>;
}

/** Where changes and revocations are made (writer) and where the tokens are used (reader). */
interface Placement {
  name: string;
  key: string;
  writer(): Instance;
  reader(): Instance;
}

async function send(
  on: Instance,
  method: string,
  path: string,
  options: { form?: Record<string, string>; json?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers = { ...options.headers };
  let body: string | undefined;
  if (options.form) {
    body = new URLSearchParams(options.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${on.url}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, any>) : {} };
}

const redirectOf = (clientId: string) => `https://${clientId}.example.com/callback`;
const clientAuth = (clientId: string) => ({ authorization: basic(clientId, testClient({ clientId }).clientSecret!) });
const userinfo = (on: Instance, token: string) =>
  send(on, 'GET', '/oauth2/userinfo', { headers: { authorization: `Bearer ${token}` } });
const introspect = (on: Instance, token: string, clientId: string) =>
  send(on, 'POST', '/oauth2/introspect', { form: { token }, headers: clientAuth(clientId) });
const revoke = (on: Instance, token: string, clientId: string) =>
  send(on, 'POST', '/oauth2/revoke', { form: { token }, headers: clientAuth(clientId) });
const refresh = (on: Instance, refreshToken: string, clientId: string) =>
  send(on, 'POST', '/oauth2/token', {
    form: { grant_type: 'refresh_token', refresh_token: refreshToken },
    headers: clientAuth(clientId),
  });
const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
const newSub = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;
const both = (placement: Placement) => [...new Set([placement.writer(), placement.reader()])];

async function signIn(on: Instance, email: string, password = testPassword): Promise<string> {
  const response = await fetch(`${on.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200)
    throw new Error(`sign-in of ${email} failed: ${response.status} ${await response.text()}`);
  return sessionCookieOf(response.headers.getSetCookie());
}

/** One call of the stream: a live token gets claims (userinfo) or active:true (introspection). */
interface StreamCall {
  endpoint: 'userinfo' | 'introspect';
  sentAfterRevocation: boolean;
  answer: Answer;
}

function outcomeOf({ endpoint, answer }: StreamCall): string {
  if (answer.status === 200)
    return endpoint === 'userinfo' ? 'userinfo claims' : `introspect active:${answer.body.active}`;
  return `${endpoint} ${answer.status} ${answer.body.error}`;
}

const expectStatus = async (answer: Promise<Answer>, status: number) => expect((await answer).status).toBe(status);

const liveOutcomes = ['userinfo claims', 'introspect active:true'];

/**
 * Four loops of userinfo and introspection calls with one access token;
 * `revocation` is fired once a few calls have been answered, and each loop
 * stops after three calls sent after its response arrived.
 */
async function raceRevocation(on: Instance, accessToken: string, clientId: string, revocation: () => Promise<void>) {
  const calls: StreamCall[] = [];
  let revoked = false;
  let streaming!: () => void;
  const started = new Promise<void>((resolve) => (streaming = resolve));
  const loop = async (endpoint: StreamCall['endpoint']) => {
    for (let after = 0; after < 3;) {
      const sentAfterRevocation = revoked;
      const answer =
        endpoint === 'userinfo' ? await userinfo(on, accessToken) : await introspect(on, accessToken, clientId);
      calls.push({ endpoint, sentAfterRevocation, answer });
      if (calls.length === 4) streaming();
      if (sentAfterRevocation) after += 1;
    }
  };
  const stream = Promise.all((['userinfo', 'introspect', 'userinfo', 'introspect'] as const).map(loop));
  await Promise.race([started, stream]);
  const answeredBeforeRevoking = calls.length;
  await revocation();
  revoked = true;
  await stream;
  return {
    before: calls.slice(0, answeredBeforeRevoking),
    after: calls.filter((c) => c.sentAfterRevocation),
    all: calls,
  };
}

interface RevocationCase {
  name: string;
  /** The token's user: a database user, or the config user of this placement. */
  user?: 'config';
  /** The token's client: 'web', or the client the revocation removes (its directory may answer 401 invalid_client once it notices). */
  removesClient?: boolean;
  /** Only the access token goes: the refresh token lives on. */
  keepsFamily?: boolean;
  /** Prepares what the revocation needs (a session, a consent) and returns the revocation, to be fired at the writer. */
  arm(target: { writer: Instance; sub: string; tokens: Tokens; clientId: string }): Promise<() => Promise<void>>;
}

describe.each(databaseKinds)('tokens under concurrency on %s', (kind) => {
  let provider: Provider;
  let other: OtherInstance | undefined;
  let adminCookie: string;
  const a: Instance = { url: '' };
  const b: Instance = { url: '' };
  const placements: Placement[] = [{ name: 'on one instance', key: 'one', writer: () => a, reader: () => a }];
  // Two instances need a shared database: SQLite is one process's file.
  if (kind === 'postgres')
    placements.push({ name: 'written on one instance, used on another', key: 'two', writer: () => a, reader: () => b });
  // What `idp apply` is given: the revocation cases remove from it.
  let configUsers: UserConfig[] = placements.map((p) => testUser({ sub: `config-user-${p.key}` }));
  let configClients: ClientConfig[] = ['web', ...placements.map((p) => `doomed-${p.key}`)].map((clientId) =>
    testClient({ clientId }),
  );

  beforeAll(async () => {
    provider = await startProvider(kind, { users: configUsers, clients: configClients });
    a.url = provider.idp.url;
    await seedUser(provider.idp, { sub: 'root', role: 'admin', email: 'root@example.com' });
    if (kind === 'postgres') {
      other = await startOtherInstance(provider);
      b.url = other.url;
    }
    adminCookie = await signIn(a, 'root@example.com');
  });
  afterAll(async () => {
    await other?.stop();
    await provider.stop();
  });

  const apply = () =>
    applyConfig(provider.idp.database.storage, { ...provider.idp.config, users: configUsers, clients: configClients });

  async function databaseUser(): Promise<string> {
    const sub = newSub('user');
    await seedUser(provider.idp, { sub });
    return sub;
  }

  /** Tokens as the code flow issues them (the browser part is test/e2e's), at `on`. */
  async function tokensFor(
    on: Instance,
    sub: string,
    clientId = 'web',
    scopes = ['openid', 'email', 'offline_access'],
  ): Promise<Tokens> {
    const issued = await issueCode(provider, { clientId, redirectUri: redirectOf(clientId), sub, scopes });
    const form = {
      grant_type: 'authorization_code',
      code: issued.code,
      redirect_uri: redirectOf(clientId),
      code_verifier: issued.verifier,
    };
    const answer = await send(on, 'POST', '/oauth2/token', { form, headers: clientAuth(clientId) });
    expect(answer.status).toBe(200);
    return answer.body as Tokens;
  }

  /** Whatever caches the hot paths keep, filled: a rotation at the reader, then successful calls on both instances. */
  async function warmedTokens(placement: Placement, sub: string, clientId = 'web', scopes?: string[]): Promise<Tokens> {
    const first = await tokensFor(placement.writer(), sub, clientId, scopes);
    const rotated = await refresh(placement.reader(), first.refresh_token, clientId);
    expect(rotated.status).toBe(200);
    const tokens = rotated.body as Tokens;
    for (const on of both(placement)) {
      for (let i = 0; i < 8; i += 1) expect((await userinfo(on, tokens.access_token)).status).toBe(200);
      for (let i = 0; i < 3; i += 1)
        expect((await introspect(on, tokens.access_token, clientId)).body.active).toBe(true);
    }
    return tokens;
  }

  describe.each(placements)('$name', (placement) => {
    it.each([2, 5])(
      'redeems one of %i copies of a refresh token presented at once, and revokes the family',
      async (copies) => {
        const sub = await databaseUser();
        const tokens = await warmedTokens(placement, sub);
        const instances = both(placement);
        const answers = await Promise.all(
          Array.from({ length: copies }, (_, i) =>
            refresh(instances[i % instances.length], tokens.refresh_token, 'web'),
          ),
        );

        const won = answers.filter((x) => x.status === 200);
        expect(won).toHaveLength(1);
        expect(answers.filter((x) => x.status !== 200)).toEqual(
          Array(copies - 1).fill({ status: 400, body: expect.objectContaining({ error: 'invalid_grant' }) }),
        );
        const winner = won[0].body as Tokens;
        for (const on of instances) {
          expect(await refresh(on, winner.refresh_token, 'web')).toMatchObject({
            status: 400,
            body: { error: 'invalid_grant' },
          });
          for (const token of [winner.access_token, tokens.access_token]) {
            expect(await userinfo(on, token)).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
            expect(await introspect(on, token, 'web')).toEqual({ status: 200, body: { active: false } });
          }
          expect(await introspect(on, winner.refresh_token, 'web')).toEqual({ status: 200, body: { active: false } });
        }
      },
    );

    const revocations: RevocationCase[] = [
      {
        name: 'the refresh token revoked at /oauth2/revoke (its grant goes)',
        arm:
          async ({ writer, tokens }) =>
          () =>
            expectStatus(revoke(writer, tokens.refresh_token, 'web'), 200),
      },
      {
        name: 'the access token revoked at /oauth2/revoke',
        keepsFamily: true,
        arm:
          async ({ writer, tokens }) =>
          () =>
            expectStatus(revoke(writer, tokens.access_token, 'web'), 200),
      },
      {
        name: 'the user deleted through the admin API',
        arm:
          async ({ writer, sub }) =>
          () =>
            expectStatus(send(writer, 'DELETE', `/api/admin/users/${sub}`, { headers: { cookie: adminCookie } }), 200),
      },
      {
        name: 'the consent withdrawn by the user',
        async arm({ writer, sub }) {
          const { db, repositories } = provider.idp.database.storage;
          await repositories.consents.grant(db, sub, 'web', ['openid', 'email', 'offline_access'], Date.now());
          const cookie = await signIn(writer, `${sub}@example.com`);
          return () => expectStatus(send(writer, 'DELETE', '/api/consents/web', { headers: { cookie } }), 204);
        },
      },
      {
        name: 'the password changed by the user (the grants of other sessions go)',
        async arm({ writer, sub }) {
          const cookie = await signIn(writer, `${sub}@example.com`);
          const json = { current_password: testPassword, new_password: 'another correct horse battery' };
          return () => expectStatus(send(writer, 'POST', '/api/user/password', { json, headers: { cookie } }), 204);
        },
      },
      {
        name: 'the user removed from the config by idp apply',
        user: 'config',
        async arm({ sub }) {
          return async () => {
            configUsers = configUsers.filter((u) => u.sub !== sub);
            await apply();
          };
        },
      },
      {
        name: 'the client removed from the config by idp apply',
        removesClient: true,
        async arm({ clientId }) {
          return async () => {
            configClients = configClients.filter((c) => c.clientId !== clientId);
            await apply();
          };
        },
      },
    ];

    it.each(revocations)(
      'refuses every userinfo and introspection call sent after $name answered',
      async (revocation) => {
        const writer = placement.writer();
        const reader = placement.reader();
        const sub = revocation.user === 'config' ? `config-user-${placement.key}` : await databaseUser();
        const clientId = revocation.removesClient ? `doomed-${placement.key}` : 'web';
        const tokens = await warmedTokens(placement, sub, clientId);
        const fire = await revocation.arm({ writer, sub, tokens, clientId });

        const { before, after, all } = await raceRevocation(reader, tokens.access_token, clientId, fire);

        const refused = [
          'userinfo 401 invalid_token',
          'introspect active:false',
          ...(revocation.removesClient ? ['introspect 401 invalid_client'] : []),
        ];
        expect(before.length).toBeGreaterThanOrEqual(4);
        expect(before.map(outcomeOf).filter((o) => !liveOutcomes.includes(o))).toEqual([]);
        expect(after.length).toBeGreaterThanOrEqual(12);
        expect(after.map(outcomeOf).filter((o) => !refused.includes(o))).toEqual([]);
        // Sent before the answer, answered after it: either, but nothing else.
        expect(all.map(outcomeOf).filter((o) => !liveOutcomes.includes(o) && !refused.includes(o))).toEqual([]);

        for (const on of both(placement)) {
          expect(await userinfo(on, tokens.access_token)).toMatchObject({
            status: 401,
            body: { error: 'invalid_token' },
          });
          const refreshed = await refresh(on, tokens.refresh_token, clientId);
          if (revocation.keepsFamily) {
            // Exact: one access token went, not its grant.
            expect(refreshed.status).toBe(200);
            expect((await userinfo(on, refreshed.body.access_token as string)).status).toBe(200);
            tokens.refresh_token = refreshed.body.refresh_token as string;
          } else if (revocation.removesClient) {
            expect([400, 401]).toContain(refreshed.status);
            expect(refreshed.body.error).toBe(refreshed.status === 400 ? 'invalid_grant' : 'invalid_client');
          } else {
            expect(refreshed).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
            expect(await introspect(on, tokens.refresh_token, clientId)).toEqual({
              status: 200,
              body: { active: false },
            });
          }
        }
      },
    );

    it("shows a user's changed claims at once, in userinfo and in the ID token of a refresh", async () => {
      const writer = placement.writer();
      const reader = placement.reader();
      const sub = await databaseUser();
      const tokens = await warmedTokens(placement, sub, 'web', ['openid', 'email', 'profile', 'offline_access']);
      const initially = (await userinfo(reader, tokens.access_token)).body;
      expect(initially).toMatchObject({ sub, email: `${sub}@example.com`, email_verified: true });
      expect(initially.name).toBeUndefined();

      const email = `${sub}-changed@example.com`;
      await expectStatus(
        send(writer, 'PATCH', `/api/admin/users/${sub}`, {
          json: { email, email_verified: false },
          headers: { cookie: adminCookie },
        }),
        200,
      );
      for (const on of [reader, writer])
        expect((await userinfo(on, tokens.access_token)).body).toMatchObject({ sub, email, email_verified: false });
      const refreshed = await refresh(reader, tokens.refresh_token, 'web');
      expect(refreshed.status).toBe(200);
      expect(claimsOf(refreshed.body.id_token as string)).toMatchObject({ sub, email, email_verified: false });

      const cookie = await signIn(writer, email);
      await expectStatus(
        send(writer, 'PATCH', '/api/user', {
          json: { name: 'Changed Name', given_name: 'Changed' },
          headers: { cookie },
        }),
        200,
      );
      for (const on of [reader, writer]) {
        expect((await userinfo(on, refreshed.body.access_token as string)).body).toMatchObject({
          sub,
          email,
          name: 'Changed Name',
          given_name: 'Changed',
        });
      }
      const again = await refresh(reader, refreshed.body.refresh_token as string, 'web');
      expect(claimsOf(again.body.id_token as string)).toMatchObject({ name: 'Changed Name', given_name: 'Changed' });
    });
  });
});
