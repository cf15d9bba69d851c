import { describe, expect, it } from 'vitest';
import {
  parseClaimsParameter,
  releasableClaimNames,
  requestedUserClaims,
  scopesOfRequestedClaims,
} from '../../src/oidc/claims-request.js';
import { OAuthError } from '../../src/oidc/errors.js';

describe('parseClaimsParameter', () => {
  it('reads both members: null, essential, value and values', () => {
    const parsed = parseClaimsParameter(
      JSON.stringify({
        id_token: { acr: { essential: true, value: 'aal2', values: ['x'] }, email: null },
        userinfo: { name: { essential: false } },
        unknown_member: 1,
      }),
    );
    expect(parsed.idToken).toEqual(
      new Map([
        ['acr', { essential: true, values: ['aal2', 'x'] }],
        ['email', { essential: false, values: [] }],
      ]),
    );
    expect(parsed.userinfo).toEqual(new Map([['name', { essential: false, values: [] }]]));
    expect(parseClaimsParameter('{"userinfo":null}').userinfo.size).toBe(0);
  });

  it.each([
    ['{', 'is not valid JSON'],
    ['"name"', 'is not a JSON object'],
    ['null', 'is not a JSON object'],
    ['[]', 'is not a JSON object'],
    ['{"id_token":[]}', 'member id_token is not a JSON object'],
    ['{"userinfo":"name"}', 'member userinfo is not a JSON object'],
    ['{"userinfo":{"name":1}}', 'asks for name with neither null nor a JSON object'],
    ['{"userinfo":{"name":{"essential":1}}}', 'gives name an essential that is not a boolean'],
    ['{"userinfo":{"name":{"values":{}}}}', 'gives name values that are not an array'],
  ])('refuses %s: %s', (raw, why) => {
    expect(() => parseClaimsParameter(raw)).toThrow(
      expect.objectContaining({ error: 'invalid_request', description: `The claims parameter ${why}.` }) as OAuthError,
    );
  });
});

describe('requestedUserClaims and scopesOfRequestedClaims', () => {
  const parameter = parseClaimsParameter(
    JSON.stringify({
      id_token: { email: null, acr: null, nickname: null },
      userinfo: { name: null, groups: null },
    }),
  );

  it('keeps the known user claims whose scope the client may have, per member', () => {
    expect(requestedUserClaims(parameter, ['openid', 'profile', 'email', 'groups'])).toEqual({
      idToken: ['email'],
      userinfo: ['name', 'groups'],
    });
    expect(requestedUserClaims(parameter, ['openid', 'profile'])).toEqual({ idToken: [], userinfo: ['name'] });
    expect(requestedUserClaims(parameter, ['openid'])).toBeNull();
  });

  it('names the scopes of those claims that the granted scopes lack', () => {
    const claims = { idToken: ['email', 'email_verified'], userinfo: ['name', 'groups'] };
    expect(scopesOfRequestedClaims(claims, ['openid', 'profile'])).toEqual(['email', 'groups']);
    expect(scopesOfRequestedClaims(claims, ['openid', 'profile', 'email', 'groups'])).toEqual([]);
    expect(scopesOfRequestedClaims(null, ['openid'])).toEqual([]);
  });

  it('releases the profile, email and groups claims', () => {
    expect(releasableClaimNames).toEqual([
      'name',
      'given_name',
      'family_name',
      'locale',
      'updated_at',
      'email',
      'email_verified',
      'groups',
    ]);
  });
});
