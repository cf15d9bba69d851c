import { describe, expect, it } from 'vitest';
import { OAuthError } from '../../../src/oidc/errors.js';
import { parse } from '../../../src/oidc/authorize/parse.js';
import { checkRedirectUri } from '../../../src/oidc/authorize/check-redirect-uri.js';
import { checkResponseType } from '../../../src/oidc/authorize/check-response-type.js';
import { checkScope } from '../../../src/oidc/authorize/check-scope.js';
import { checkPkce } from '../../../src/oidc/authorize/check-pkce.js';
import { checkPrompt } from '../../../src/oidc/authorize/check-prompt.js';
import type { AuthorizeClient } from '../../../src/oidc/authorize/types.js';

const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

function client(overrides: Partial<AuthorizeClient> = {}): AuthorizeClient {
  return {
    clientId: 'web',
    name: 'Web',
    redirectUris: ['https://web.example.com/callback', 'http://127.0.0.1:4000/cb'],
    grantTypes: ['authorization_code', 'refresh_token'],
    tokenEndpointAuthMethod: 'client_secret_basic',
    scopes: ['openid', 'profile', 'email', 'offline_access'],
    requirePkce: true,
    skipConsent: false,
    requirePushedAuthorizationRequests: false,
    access: null,
    ...overrides,
  };
}

const good: Record<string, string> = {
  client_id: 'web',
  redirect_uri: 'https://web.example.com/callback',
  response_type: 'code',
  scope: 'openid email',
  code_challenge: challenge,
  code_challenge_method: 'S256',
  state: 's-1',
};

/** Runs the pure steps after loadClient on the given parameters. */
function validate(params: Record<string, string | string[] | undefined>, c: AuthorizeClient = client()) {
  const parsed = parse({ params, session: null });
  const withTarget = checkRedirectUri({ ...parsed, client: c });
  return checkPrompt(checkPkce(checkScope(checkResponseType(withTarget))));
}

function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof OAuthError) return `${error.error}: ${error.description}`;
    throw error;
  }
  return 'no error';
}

describe('parse', () => {
  it('drops empty parameters and refuses repeated ones (RFC 6749 §3.1)', () => {
    expect(parse({ params: { a: '1', b: '', c: undefined }, session: null }).params).toEqual({ a: '1' });
    expect(errorOf(() => parse({ params: { scope: ['openid', 'email'] }, session: null }))).toBe(
      'invalid_request: The scope parameter is repeated.',
    );
  });
});

describe('checkRedirectUri', () => {
  it.each([
    ['missing', undefined, 'invalid_request: The redirect_uri parameter is missing.'],
    [
      'another path',
      'https://web.example.com/other',
      'invalid_request: The redirect_uri is not registered for this client.',
    ],
    [
      'a trailing slash',
      'https://web.example.com/callback/',
      'invalid_request: The redirect_uri is not registered for this client.',
    ],
    [
      'another case',
      'https://WEB.example.com/callback',
      'invalid_request: The redirect_uri is not registered for this client.',
    ],
    [
      'an added query',
      'https://web.example.com/callback?x=1',
      'invalid_request: The redirect_uri is not registered for this client.',
    ],
    [
      'another path on a loopback port',
      'http://127.0.0.1:4001/other',
      'invalid_request: The redirect_uri is not registered for this client.',
    ],
  ])('refuses %s (exact matching)', (_, redirectUri, expected) => {
    const parsed = parse({ params: { ...good, redirect_uri: redirectUri }, session: null });
    expect(errorOf(() => checkRedirectUri({ ...parsed, client: client() }))).toBe(expected);
  });

  it('trusts a registered loopback URI on another port (RFC 8252 §7.3)', () => {
    const parsed = parse({ params: { ...good, redirect_uri: 'http://127.0.0.1:4001/cb' }, session: null });
    expect(checkRedirectUri({ ...parsed, client: client() }).target.redirectUri).toBe('http://127.0.0.1:4001/cb');
  });

  it('trusts a registered URI and carries state and response_mode', () => {
    const parsed = parse({ params: { ...good, response_mode: 'form_post' }, session: null });
    expect(checkRedirectUri({ ...parsed, client: client() }).target).toEqual({
      redirectUri: 'https://web.example.com/callback',
      responseMode: 'form_post',
      state: 's-1',
    });
  });
});

describe('checkResponseType', () => {
  it.each([
    [{ response_type: undefined }, 'invalid_request: The response_type parameter is missing.'],
    [{ response_type: 'token' }, 'unsupported_response_type: Only the response_type code is supported.'],
    [{ response_type: 'code id_token' }, 'unsupported_response_type: Only the response_type code is supported.'],
    [{ response_mode: 'fragment' }, 'invalid_request: The response_mode must be query or form_post.'],
    [{ request: 'eyJ…' }, 'request_not_supported: Request objects are not supported.'],
    [{ request_uri: 'https://x' }, 'request_uri_not_supported: The request_uri parameter is not supported.'],
  ])('refuses %o', (changes, expected) => {
    expect(errorOf(() => validate({ ...good, ...changes }))).toBe(expected);
  });

  it('refuses a client without the authorization_code grant', () => {
    expect(errorOf(() => validate(good, client({ grantTypes: ['client_credentials'] })))).toBe(
      'unauthorized_client: The client may not use the authorization code flow.',
    );
  });
});

describe('checkScope', () => {
  it.each([
    ['openid email', ['openid', 'email']],
    ['openid  email openid', ['openid', 'email']],
    ['openid admin email', ['openid', 'email']],
    ['email openid offline_access', ['email', 'openid', 'offline_access']],
  ])('grants %j as %j', (scope, expected) => {
    expect(validate({ ...good, scope }).scopes).toEqual(expected);
  });

  it('drops scopes the client is not allowed and offline_access without refresh tokens', () => {
    const narrow = client({ scopes: ['openid', 'offline_access'], grantTypes: ['authorization_code'] });
    expect(validate({ ...good, scope: 'openid email offline_access' }, narrow).scopes).toEqual(['openid']);
  });

  it.each([
    [undefined, 'invalid_scope: The openid scope is required.'],
    ['email profile', 'invalid_scope: The openid scope is required.'],
  ])('refuses scope %j', (scope, expected) => {
    expect(errorOf(() => validate({ ...good, scope }))).toBe(expected);
  });
});

describe('checkPkce', () => {
  const confidentialWithoutPkce = client({ requirePkce: false });
  it.each([
    [
      'no challenge, public client',
      { code_challenge: undefined, code_challenge_method: undefined },
      client({ tokenEndpointAuthMethod: 'none', requirePkce: false }),
      'invalid_request: PKCE is required: send a code_challenge with code_challenge_method S256.',
    ],
    [
      'no challenge, require_pkce',
      { code_challenge: undefined, code_challenge_method: undefined },
      client(),
      'invalid_request: PKCE is required: send a code_challenge with code_challenge_method S256.',
    ],
    [
      'plain',
      { code_challenge_method: 'plain' },
      confidentialWithoutPkce,
      'invalid_request: The code_challenge_method must be S256.',
    ],
    [
      'no method (means plain)',
      { code_challenge_method: undefined },
      confidentialWithoutPkce,
      'invalid_request: The code_challenge_method must be S256.',
    ],
    [
      'a short challenge',
      { code_challenge: 'abc' },
      client(),
      'invalid_request: The code_challenge is not a S256 challenge.',
    ],
    [
      'a method alone',
      { code_challenge: undefined },
      confidentialWithoutPkce,
      'invalid_request: The code_challenge_method is given without a code_challenge.',
    ],
  ])('refuses %s', (_, changes, c, expected) => {
    expect(errorOf(() => validate({ ...good, ...changes }, c))).toBe(expected);
  });

  it('accepts S256 and lets a confidential client without require_pkce skip PKCE', () => {
    expect(validate(good).pkce).toEqual({ challenge, method: 'S256' });
    const noPkce = { ...good, code_challenge: undefined, code_challenge_method: undefined };
    expect(validate(noPkce, client({ requirePkce: false })).pkce).toBeNull();
  });
});

describe('checkPrompt', () => {
  it.each([
    [{ prompt: 'none login' }, 'invalid_request: The prompt value none cannot be combined with other values.'],
    [{ prompt: 'create' }, 'invalid_request: The prompt value create is not supported.'],
    [{ max_age: '-1' }, 'invalid_request: The max_age must be a non-negative integer.'],
    [{ max_age: '1.5' }, 'invalid_request: The max_age must be a non-negative integer.'],
  ])('refuses %o', (changes, expected) => {
    expect(errorOf(() => validate({ ...good, ...changes }))).toBe(expected);
  });

  it('reads prompt, max_age, nonce and the interaction markers', () => {
    const state = validate({
      ...good,
      prompt: 'login consent',
      max_age: '0',
      nonce: 'n',
      auth_after: '1700',
      consent_denied: 'true',
    });
    expect([...state.prompt]).toEqual(['login', 'consent']);
    expect(state).toMatchObject({ maxAge: 0, nonce: 'n', authAfter: 1700, consentDenied: true });
  });
});
