import type { Clock } from '../clock.js';
import { asObject, fetchUpstreamJson } from './fetch-upstream.js';
import { UpstreamError } from './federation-error.js';
import { fetchGithubTeams } from './github-teams.js';
import type { OpenIdMetadataCache } from './openid-metadata.js';
import { nothingWanted, type UpstreamWants } from './upstream-groups.js';
import { readEmail, readEmailList, readSubject, readVerified, type AssertedIdentity } from './upstream-identity.js';
import type { UpstreamProvider } from './upstream-provider.js';
import { verifyIdToken, type KeySets } from './verify-id-token.js';

/** What one sign-in sends to the upstream and must find again in its answer. */
export interface UpstreamRequestSecrets {
  state: string;
  /** RFC 7636 code_verifier; the request carries its S256 challenge. */
  codeVerifier: string;
  codeChallenge: string;
  /** OIDC Core §3.1.2.1; sent to OpenID upstreams only. */
  nonce: string;
}

/**
 * Sign in with Apple answers by form_post when name or email is asked for
 * (its scopes are `name email`); the callback takes POST for it.
 */
export function usesFormPost(provider: UpstreamProvider): boolean {
  return provider.type === 'apple' && provider.scopes.some((scope) => scope === 'name' || scope === 'email');
}

/** RFC 6749 §4.1.1 with RFC 7636 §4.3 (and the OIDC nonce): where the browser goes at the upstream. */
export function authorizationUrl(
  provider: UpstreamProvider,
  redirectUri: string,
  secrets: UpstreamRequestSecrets,
): string {
  const url = new URL(provider.authorizationUrl);
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: provider.clientId,
    redirect_uri: redirectUri,
    scope: provider.scopes.join(' '),
    state: secrets.state,
    code_challenge: secrets.codeChallenge,
    code_challenge_method: 'S256',
    ...(provider.openId ? { nonce: secrets.nonce } : {}),
    ...(usesFormPost(provider) ? { response_mode: 'form_post' } : {}),
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.href;
}

export interface UpstreamClientDeps {
  clock: Clock;
  timeoutMs: number;
  metadata: OpenIdMetadataCache;
  keySets: KeySets;
}

/**
 * The code for tokens (RFC 6749 §4.1.3), then who signed in: from the
 * verified ID token for OpenID upstreams (the userinfo endpoint fills in an
 * e-mail the token lacks), else from the userinfo endpoint, with the e-mail
 * list endpoint (GitHub's /user/emails) giving the address and whether it
 * is verified. `wants` (the group rules of this provider) adds what they
 * read: the userinfo claims an ID token lacks, GitHub's teams.
 */
export async function fetchUpstreamIdentity(
  provider: UpstreamProvider,
  exchange: { code: string; redirectUri: string; codeVerifier: string; nonce: string },
  deps: UpstreamClientDeps,
  wants: UpstreamWants = nothingWanted,
): Promise<AssertedIdentity> {
  const tokens = await redeemCode(provider, exchange, deps.timeoutMs);
  // tokenRequest has refused an OpenID upstream's answer without an id_token.
  if (provider.openId && tokens.idToken !== null)
    return openIdIdentity(provider, { ...tokens, idToken: tokens.idToken }, exchange.nonce, wants, deps);
  return oauthIdentity(provider, tokens.accessToken, wants, deps.timeoutMs);
}

interface UpstreamTokens {
  accessToken: string;
  idToken: string | null;
}

async function redeemCode(
  provider: UpstreamProvider,
  exchange: { code: string; redirectUri: string; codeVerifier: string },
  timeoutMs: number,
): Promise<UpstreamTokens> {
  const form: Record<string, string> = {
    grant_type: 'authorization_code',
    code: exchange.code,
    redirect_uri: exchange.redirectUri,
    code_verifier: exchange.codeVerifier,
  };
  const headers: Record<string, string> = {};
  // RFC 6749 §2.3.1: a server must support HTTP Basic, so a generic one gets it; GitHub, Google and
  // Apple document the secret in the body (Apple's is the ES256 JWT the operator made).
  if (provider.type === 'generic_oauth') {
    const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
    headers.authorization = `Basic ${Buffer.from(`${encode(provider.clientId)}:${encode(provider.clientSecret)}`).toString('base64')}`;
  } else {
    Object.assign(form, { client_id: provider.clientId, client_secret: provider.clientSecret });
  }
  const { status, body } = await fetchUpstreamJson(
    'token endpoint',
    provider.tokenUrl,
    { method: 'POST', form, headers },
    timeoutMs,
  );
  const answer = asObject('token endpoint', body);
  // GitHub answers a refused code with 200 and an error body (RFC 6749 §5.2 says 400).
  if (typeof answer.error === 'string') {
    throw new UpstreamError(
      `token endpoint refused the code: ${answer.error}${typeof answer.error_description === 'string' ? ` (${answer.error_description})` : ''}`,
    );
  }
  if (status !== 200) throw new UpstreamError(`token endpoint: HTTP ${status}`);
  if (typeof answer.access_token !== 'string' || answer.access_token === '')
    throw new UpstreamError('token endpoint: no access_token');
  const idToken = typeof answer.id_token === 'string' ? answer.id_token : null;
  if (provider.openId && idToken === null)
    throw new UpstreamError('token endpoint: no id_token from an OpenID upstream');
  return { accessToken: answer.access_token, idToken };
}

async function openIdIdentity(
  provider: UpstreamProvider,
  tokens: UpstreamTokens & { idToken: string },
  nonce: string,
  wants: UpstreamWants,
  deps: UpstreamClientDeps,
): Promise<AssertedIdentity> {
  const metadata = await deps.metadata.metadataFor(provider.authorizationUrl);
  const claims = await verifyIdToken(
    tokens.idToken,
    { metadata, clientId: provider.clientId, nonce, now: deps.clock.now() },
    deps.keySets,
  );
  const subject = readSubject('ID token', claims.sub);
  const email = readEmail(claims.email);
  const userinfoUrl = provider.userinfoUrl ?? metadata.userinfoEndpoint;
  // Userinfo when the token lacks the e-mail or a claim a group rule reads.
  const lacking = email === null || wants.claims.some((name) => !Object.hasOwn(claims, name));
  const info =
    lacking && userinfoUrl !== null ? await readUserinfo(userinfoUrl, subject, tokens.accessToken, deps) : null;
  // The signed token's word wins where both speak.
  const assertion = { claims: { ...info, ...claims }, teams: [] };
  if (email !== null) return { subject, email, emailVerified: readVerified(claims.email_verified), assertion };
  return { subject, email: readEmail(info?.email), emailVerified: readVerified(info?.email_verified), assertion };
}

async function readUserinfo(
  url: string,
  subject: string,
  accessToken: string,
  deps: UpstreamClientDeps,
): Promise<Record<string, unknown>> {
  const info = asObject('userinfo endpoint', await getJson('userinfo endpoint', url, accessToken, deps.timeoutMs));
  // OIDC Core §5.3.4: userinfo about someone else than the ID token's subject must not be used.
  if (info.sub !== subject) throw new UpstreamError("userinfo endpoint: sub differs from the ID token's");
  return info;
}

async function oauthIdentity(
  provider: UpstreamProvider,
  accessToken: string,
  wants: UpstreamWants,
  timeoutMs: number,
): Promise<AssertedIdentity> {
  if (provider.userinfoUrl === null) throw new UpstreamError('no userinfo_url to read the account from');
  const info = asObject(
    'userinfo endpoint',
    await getJson('userinfo endpoint', provider.userinfoUrl, accessToken, timeoutMs),
  );
  const subject = readSubject('userinfo endpoint', info.sub ?? info.id);
  const teams =
    provider.type === 'github' && wants.teams
      ? await fetchGithubTeams(provider.userinfoUrl, accessToken, timeoutMs)
      : [];
  const assertion = { claims: info, teams };
  if (provider.emailUrl !== null) {
    return {
      subject,
      ...readEmailList('e-mail endpoint', await getJson('e-mail endpoint', provider.emailUrl, accessToken, timeoutMs)),
      assertion,
    };
  }
  return { subject, email: readEmail(info.email), emailVerified: readVerified(info.email_verified), assertion };
}

async function getJson(what: string, url: string, accessToken: string, timeoutMs: number): Promise<unknown> {
  const { status, body } = await fetchUpstreamJson(
    what,
    url,
    { headers: { authorization: `Bearer ${accessToken}` } },
    timeoutMs,
  );
  if (status !== 200) throw new UpstreamError(`${what}: HTTP ${status}`);
  return body;
}
