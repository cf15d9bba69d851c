import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { problemLines, secretLine, yaml } from './load-text.js';

const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
const now = Math.floor(Date.now() / 1000);

/** A Sign in with Apple client secret, spoilt as asked. */
async function appleSecret(
  options: {
    alg?: 'ES256' | 'HS256';
    kid?: string | null;
    iss?: string | null;
    sub?: string;
    aud?: string;
    iat?: number;
    exp?: number;
  } = {},
) {
  const header: Record<string, string> = { alg: options.alg ?? 'ES256' };
  if (options.kid !== null) header.kid = options.kid ?? 'KEY1234567';
  const jwt = new SignJWT({ ...(options.iss === null ? {} : { iss: options.iss ?? 'TEAM123456' }) })
    .setProtectedHeader(header as { alg: string })
    .setSubject(options.sub ?? 'com.example.idp')
    .setAudience(options.aud ?? 'https://appleid.apple.com')
    .setIssuedAt(options.iat ?? now)
    .setExpirationTime(options.exp ?? now + 90 * 86_400);
  return options.alg === 'HS256' ? jwt.sign(new TextEncoder().encode('x'.repeat(32))) : jwt.sign(key);
}

const apple = (secret: string, extra: string[] = []) =>
  yaml(
    secretLine,
    'identity_providers:',
    '  - id: apple',
    '    type: apple',
    '    client_id: com.example.idp',
    `    client_secret: "${secret}"`,
    ...extra,
  );
const secretAt =
  'idp.yaml:6:20: identity_providers[0].client_secret: must be the client secret JWT of Sign in with Apple (ES256, signed with your key; docs/configuration.md)';

describe('identity provider rules (per type)', () => {
  it('accepts an Apple client secret JWT with kid, iss, sub = client_id, aud Apple, a future exp', async () => {
    expect(problemLines(apple(await appleSecret()))).toEqual([]);
  });

  it('refuses an Apple client secret that is no such JWT, naming every fault', async () => {
    expect(problemLines(apple('a-plain-secret'))).toEqual([`${secretAt}: it is not a JWT`]);
    expect(problemLines(apple('a.b.c'))).toEqual([`${secretAt}: it is not a JWT`]);
    expect(
      problemLines(
        apple(await appleSecret({ alg: 'HS256', kid: null, iss: null, sub: 'com.other', aud: 'https://example.com' })),
      ),
    ).toEqual([
      `${secretAt}: its alg is HS256, not ES256; its header has no kid (the key id); it has no iss (your team id); its sub is "com.other", not the client_id "com.example.idp"; its aud is not https://appleid.apple.com`,
    ]);
    const expired = await appleSecret({ iat: now - 100 * 86_400, exp: now - 86_400 });
    expect(
      problemLines(apple(expired))[0].startsWith(
        `${secretAt}: it expired on ${new Date((now - 86_400) * 1000).toISOString().slice(0, 10)}`,
      ),
    ).toBe(true);
    expect(problemLines(apple(await appleSecret({ exp: now + 200 * 86_400 })))).toEqual([
      `${secretAt}: it is valid for more than six months, which Apple refuses`,
    ]);
  });

  it('warns two weeks before the Apple secret ends; an unset variable is left to the interpolation error', async () => {
    expect(problemLines(apple(await appleSecret({ exp: now + 3 * 86_400 })))[0]).toMatch(
      /^idp\.yaml:6:20: warning: identity_providers\[0\]\.client_secret: expires on .*: sign a new one before then$/,
    );
    expect(problemLines(apple('${APPLE_CLIENT_SECRET}'))).toEqual([
      'idp.yaml:6:20: identity_providers[0].client_secret: environment variable APPLE_CLIENT_SECRET is not set (write ${APPLE_CLIENT_SECRET:-default} to give a default)',
    ]);
  });

  it('google must ask for openid; github without user:email is warned', () => {
    const provider = (type: string, scopes: string) =>
      yaml(
        secretLine,
        'identity_providers:',
        `  - { id: p, type: ${type}, client_id: a, client_secret: b, scopes: ${scopes} }`,
      );
    expect(problemLines(provider('google', '[openid, email]'))).toEqual([]);
    expect(problemLines(provider('google', '[email, profile]'))).toEqual([
      'idp.yaml:3:68: identity_providers[0].scopes: must include openid: google signs in with OpenID Connect',
    ]);
    expect(problemLines(provider('github', '[read:user]'))).toEqual([
      'idp.yaml:3:68: warning: identity_providers[0].scopes: has no user:email: GitHub then does not show idp the verified address, and new users cannot sign up',
    ]);
  });

  it('generic_oauth without openid needs userinfo_url; auto_link there without email_url is warned', () => {
    const generic = (extra: string[]) =>
      yaml(
        secretLine,
        'identity_providers:',
        '  - id: corp',
        '    type: generic_oauth',
        '    display_name: Corp',
        '    authorization_url: https://sso.example.com/authorize',
        '    token_url: https://sso.example.com/token',
        '    client_id: a',
        '    client_secret: b',
        ...extra,
      );
    expect(problemLines(generic([]))).toEqual([]);
    expect(problemLines(generic(['    scopes: [email]']))).toEqual([
      'idp.yaml:3:5: identity_providers[0]: needs userinfo_url (or the openid scope) to learn who signed in',
    ]);
    expect(problemLines(generic(['    scopes: [email]', '    userinfo_url: https://sso.example.com/me']))).toEqual([]);
    expect(
      problemLines(
        generic([
          '    scopes: [email]',
          '    userinfo_url: https://sso.example.com/me',
          '    email_conflict_strategy: auto_link',
        ]),
      ),
    ).toEqual([
      'idp.yaml:12:30: warning: identity_providers[0].email_conflict_strategy: auto_link links only addresses the upstream marks verified (email_verified: true); without openid or an email_url listing verified addresses, users whose address matches an account will be asked to link instead',
    ]);
    expect(
      problemLines(
        generic([
          '    scopes: [email]',
          '    userinfo_url: https://sso.example.com/me',
          '    email_url: https://sso.example.com/emails',
          '    email_conflict_strategy: auto_link',
        ]),
      ),
    ).toEqual([]);
    expect(problemLines(generic(['    email_conflict_strategy: auto_link']))).toEqual([]);
  });
});
