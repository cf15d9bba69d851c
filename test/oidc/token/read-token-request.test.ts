import { describe, expect, it } from 'vitest';
import { readTokenRequest, type TokenForm } from '../../../src/oidc/token/index.js';
import { OAuthError } from '../../../src/oidc/errors.js';

const credentials = { authMethod: 'client_secret_post', clientId: 'c', clientSecret: 's' };

/** The token endpoint's edge: wire form → typed, camelCase TokenRequest. */
describe('readTokenRequest', () => {
  it.each<[string, TokenForm, unknown]>([
    [
      'authorization_code',
      {
        grant_type: 'authorization_code',
        code: 'k',
        redirect_uri: 'https://a/cb',
        code_verifier: 'v',
        scope: 'ignored',
      },
      { grantType: 'authorization_code', code: 'k', redirectUri: 'https://a/cb', codeVerifier: 'v' },
    ],
    [
      'authorization_code without a verifier',
      { grant_type: 'authorization_code', code: 'k', redirect_uri: 'https://a/cb' },
      { grantType: 'authorization_code', code: 'k', redirectUri: 'https://a/cb', codeVerifier: undefined },
    ],
    [
      'authorization_code without code and redirect_uri',
      { grant_type: 'authorization_code' },
      { missing: ['code', 'redirect_uri'] },
    ],
    [
      'authorization_code with an empty code (RFC 6749 §3.2)',
      { grant_type: 'authorization_code', code: '', redirect_uri: 'https://a/cb' },
      { missing: ['code'] },
    ],
    [
      'refresh_token',
      { grant_type: 'refresh_token', refresh_token: 'r', scope: 'openid' },
      { grantType: 'refresh_token', refreshToken: 'r', scope: 'openid' },
    ],
    [
      'refresh_token without a scope',
      { grant_type: 'refresh_token', refresh_token: 'r' },
      { grantType: 'refresh_token', refreshToken: 'r', scope: undefined },
    ],
    [
      'refresh_token without the token',
      { grant_type: 'refresh_token', scope: 'openid' },
      { missing: ['refresh_token'] },
    ],
    [
      'client_credentials',
      { grant_type: 'client_credentials', scope: 'api' },
      { grantType: 'client_credentials', scope: 'api' },
    ],
    [
      'client_credentials without a scope',
      { grant_type: 'client_credentials' },
      { grantType: 'client_credentials', scope: undefined },
    ],
  ])('reads %s', (_name, form, parameters) => {
    const request = readTokenRequest({ ...form, client_id: 'c', client_secret: 's' }, undefined);
    expect(request).toEqual({ grantType: form.grant_type, credentials, parameters });
  });

  it('keeps a credentials failure for client authentication to answer', () => {
    expect(readTokenRequest({ grant_type: 'client_credentials' }, 'Basic !!!').credentials).toMatchObject({
      error: 'invalid_client',
      usedBasic: true,
    });
  });

  it.each<[string, TokenForm, string, string]>([
    ['no grant_type', {}, 'invalid_request', 'The grant_type parameter is missing.'],
    ['an empty grant_type', { grant_type: '' }, 'invalid_request', 'The grant_type parameter is missing.'],
    [
      'an unknown grant_type',
      { grant_type: 'password' },
      'unsupported_grant_type',
      'The grant type password is not supported.',
    ],
    [
      'an inherited property name',
      { grant_type: 'constructor' },
      'unsupported_grant_type',
      'The grant type constructor is not supported.',
    ],
  ])('refuses %s', (_name, form, error, description) => {
    let thrown: unknown;
    try {
      readTokenRequest(form, 'Basic !!!');
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(OAuthError);
    expect(thrown).toMatchObject({ error, description });
  });
});
