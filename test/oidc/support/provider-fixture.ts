import * as oauth from 'oauth4webapi';
import { createHash, randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { createApp, type App } from '../../../src/app.js';
import type { Config } from '../../../src/config/types.js';
import { knexAuthorizationCodeRepository } from '../../../src/storage/knex/authorization-codes.js';
import type { AuthorizationCodeRecord } from '../../../src/model/index.js';
import type { DatabaseKind } from '../../support/databases.js';
import { startIdp, type RunningIdp } from '../../e2e/support/start-idp.js';

// eslint-disable-next-line @typescript-eslint/no-deprecated -- the test servers speak plain HTTP on 127.0.0.1
export const insecure = { [oauth.allowInsecureRequests]: true } as const;

export interface Provider {
  idp: RunningIdp;
  as: oauth.AuthorizationServer;
  stop(): Promise<void>;
}

/** The real server on a fresh database, discovered by oauth4webapi (which validates the metadata strictly). */
export async function startProvider(kind: DatabaseKind, overrides: Partial<Config>): Promise<Provider> {
  const idp = await startIdp(kind, overrides);
  const issuer = new URL(idp.url);
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }),
  );
  return { idp, as, stop: () => idp.stop() };
}

export interface OtherInstance {
  /** Where it listens; its issuer is the provider's. */
  url: string;
  app: App;
  stop(): Promise<void>;
}

/**
 * A second instance of the provider's deployment: the real composition root
 * on the same database config and issuer, with its own connection pool and
 * in-memory state, on a port of its own. Stop it before the provider.
 */
export async function startOtherInstance(provider: Provider): Promise<OtherInstance> {
  const { config } = provider.idp;
  const app = await createApp(
    { ...config, server: { ...config.server, port: 0 } },
    { logger: pino({ level: 'silent' }) },
  );
  const url = await app.start();
  return { url, app, stop: () => app.stop({ timeoutMs: 1000 }) };
}

export interface IssuedCode {
  code: string;
  verifier: string;
  nonce: string;
  record: AuthorizationCodeRecord;
}

/**
 * A code as the authorization endpoint would have issued it, inserted
 * through the authorize engineer's repository (the browser part of the flow
 * is tested in test/e2e/).
 */
export async function issueCode(
  provider: Provider,
  record: Partial<AuthorizationCodeRecord> & { clientId: string; redirectUri: string },
): Promise<IssuedCode> {
  const code = randomBytes(32).toString('base64url');
  const verifier = oauth.generateRandomCodeVerifier();
  const nonce = oauth.generateRandomNonce();
  const now = Date.now();
  const full: AuthorizationCodeRecord = {
    codeHash: createHash('sha256').update(code).digest('base64url'),
    grantId: randomBytes(16).toString('base64url'),
    sub: 'alice',
    scopes: ['openid', 'email', 'offline_access'],
    nonce,
    codeChallenge: await oauth.calculatePKCECodeChallenge(verifier),
    codeChallengeMethod: 'S256',
    authTime: now - 5000,
    amr: ['pwd', 'otp'],
    sessionId: null,
    sid: null,
    claims: null,
    expiresAt: now + 60_000,
    consumedAt: null,
    createdAt: now,
    ...record,
  };
  await knexAuthorizationCodeRepository.insert(provider.idp.database.tx, full);
  return { code, verifier, nonce, record: full };
}

/** The callback parameters of a code, as the client would receive them (RFC 9207 iss included). */
export function callbackOf(provider: Provider, client: oauth.Client, code: string): URLSearchParams {
  return oauth.validateAuthResponse(
    provider.as,
    client,
    new URLSearchParams({ code, iss: provider.as.issuer }),
    oauth.expectNoState,
  );
}

/** A raw form POST (for the bad-input cases a library refuses to send). */
export async function postForm(
  provider: Provider,
  path: string,
  form: Record<string, string | string[]>,
  headers: Record<string, string> = {},
) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) for (const v of [value].flat()) body.append(name, v);
  const response = await fetch(`${provider.idp.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, any>) : {},
  };
}

export function basic(id: string, secret: string): string {
  const encode = (v: string) => encodeURIComponent(v).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
}
