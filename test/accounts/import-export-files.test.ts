import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readAuth0Export } from '../../src/accounts/user-import/auth0-export.js';
import { base32, ImportFileError, parseJson } from '../../src/accounts/user-import/imported-user.js';
import { readKeycloakExport } from '../../src/accounts/user-import/keycloak-export.js';

/**
 * Reading Keycloak and Auth0 exports (docs/operations.md, "Migrating from
 * Keycloak and Auth0"): every user an entry, created or refused with why;
 * a file that is no export one error with its place.
 */
const salt = randomBytes(16).toString('base64');
const value = randomBytes(64).toString('base64');
const pbkdf2Credential = (extra: Record<string, unknown> = {}) => ({
  type: 'password',
  secretData: JSON.stringify({ value, salt }),
  credentialData: JSON.stringify({ hashIterations: 27_500, algorithm: 'pbkdf2-sha256', ...extra }),
});
const argon2Credential = (parameters: unknown, hashIterations: unknown = 3) => ({
  type: 'password',
  secretData: { value, salt },
  credentialData: { hashIterations, algorithm: 'argon2', additionalParameters: parameters },
});
const otpCredential = (secret: unknown, data: Record<string, unknown> = {}) => ({
  type: 'otp',
  secretData: JSON.stringify({ value: secret }),
  credentialData: JSON.stringify({ subType: 'totp', digits: 6, period: 30, algorithm: 'HmacSHA1', ...data }),
});

const keycloak = (users: unknown[]) => readKeycloakExport(JSON.stringify({ realm: 'r', users }), 'realm.json');
const one = (user: Record<string, unknown>) => keycloak([{ email: 'a@example.com', ...user }])[0];
const reasonOf = (user: Record<string, unknown>) => {
  const entry = one(user);
  return 'refusal' in entry ? entry.refusal.reason : null;
};
const hashOf = (credentials: unknown[]) => {
  const entry = one({ credentials });
  if (!('user' in entry)) throw new Error(entry.refusal.reason);
  return entry.user.passwordHash;
};

describe('reading a Keycloak realm export', () => {
  it('refuses what is no realm export with users', () => {
    for (const text of ['[]', 'null', '"realm"', '{"realm":1}', '{"realm":"r","users":{}}', '{"users":{}}'])
      expect(() => readKeycloakExport(text, 'r.json'), text).toThrow(
        new ImportFileError(
          'r.json: not a Keycloak realm export with users (no "users" list): export with kc.sh export --users same_file',
        ),
      );
  });

  it('takes the realm file of a split export as no users', () => {
    expect(readKeycloakExport('{"id":"acme","realm":"acme","enabled":true}', 'acme-realm.json')).toEqual([]);
  });

  it('reads names and verification, and refuses entries that are no user or no address', () => {
    expect(keycloak([null, [], 'x'])).toEqual(
      [0, 1, 2].map((i) => ({ refusal: { at: `realm.json users[${i}]`, email: null, reason: 'not a user object' } })),
    );
    expect(one({ firstName: ' Grace ', credentials: 'none' })).toEqual({
      user: {
        at: 'realm.json users[0]',
        email: 'a@example.com',
        emailVerified: false,
        givenName: 'Grace',
        familyName: null,
        name: 'Grace',
        passwordHash: null,
        totpSecret: null,
      },
    });
    expect(one({ lastName: 'Hopper', emailVerified: true })).toMatchObject({
      user: { name: 'Hopper', givenName: null, familyName: 'Hopper', emailVerified: true },
    });
    expect(one({})).toMatchObject({ user: { name: null } });
    expect(reasonOf({ email: 'not-an-address' })).toBe('"not-an-address" is not an e-mail address');
    expect(reasonOf({ email: 'a@localhost' })).toBe('"a@localhost" is not an e-mail address');
    expect(reasonOf({ email: `${'a'.repeat(310)}@example.com` })).toMatch(/is not an e-mail address$/);
    expect(reasonOf({ email: '  ' })).toBe('no e-mail address (username undefined)');
  });

  it('turns PBKDF2 credentials into their stored form, the old credential layout as well', () => {
    const unpadded = (text: string) => text.replace(/=+$/, '');
    expect(hashOf([pbkdf2Credential()])).toBe(`$pbkdf2-sha256$i=27500$${unpadded(salt)}$${unpadded(value)}`);
    expect(
      hashOf([{ type: 'password', hashedSaltedValue: value, salt, hashIterations: 20_000, algorithm: 'pbkdf2' }]),
    ).toBe(`$pbkdf2-sha1$i=20000$${unpadded(salt)}$${unpadded(value)}`);
    // Keycloak's password history and other credential types are not the password.
    expect(hashOf([{ type: 'password-history' }, { type: 'webauthn' }])).toBeNull();
  });

  it.each([
    [
      { type: 'password', secretData: '{not json', credentialData: '{}' },
      'the password credential has no readable secretData and credentialData',
    ],
    [
      { type: 'password', secretData: '1', credentialData: '{}' },
      'the password credential has no readable secretData and credentialData',
    ],
    [
      { type: 'password', secretData: 7, credentialData: '{}' },
      'the password credential has no readable secretData and credentialData',
    ],
    [
      { type: 'password', secretData: { value, salt }, credentialData: { algorithm: 'sha512-crypt' } },
      'unknown password hash algorithm "sha512-crypt"',
    ],
    [
      { type: 'password', secretData: { value: 'not base64!', salt }, credentialData: { algorithm: 'pbkdf2' } },
      'the pbkdf2 password hash or its salt is not base64',
    ],
    [
      { type: 'password', secretData: { value }, credentialData: { algorithm: 'pbkdf2' } },
      'the pbkdf2 password hash or its salt is not base64',
    ],
    [
      { type: 'password', secretData: { value: 1, salt }, credentialData: { algorithm: 'pbkdf2' } },
      'the pbkdf2 password hash or its salt is not base64',
    ],
    [
      { type: 'password', secretData: { value, salt: '%%' }, credentialData: { algorithm: 'pbkdf2' } },
      'the pbkdf2 password hash or its salt is not base64',
    ],
    [pbkdf2Credential({ hashIterations: 1 }), '1 PBKDF2 iterations is outside 1000..10000000'],
  ])('refuses the user of a password credential it cannot take (case %#)', (credential, reason) => {
    expect(reasonOf({ credentials: [credential] })).toBe(reason);
  });

  it("turns Keycloak's argon2 into a PHC string, within the bounds of a sign-in's cost", () => {
    const [s, v] = [salt.replace(/=+$/, ''), value.replace(/=+$/, '')];
    const parameters = { hashLength: ['64'], memory: ['7168'], type: ['id'], version: ['1.3'], parallelism: ['1'] };
    expect(hashOf([argon2Credential(parameters)])).toBe(`$argon2id$v=19$m=7168,t=3,p=1$${s}$${v}`);
    expect(hashOf([argon2Credential({ memory: 65536, type: 'i', version: '1.0', parallelism: 2 }, 4)])).toBe(
      `$argon2i$v=16$m=65536,t=4,p=2$${s}$${v}`,
    );
    expect(hashOf([argon2Credential({ memory: ['1024'], type: ['d'] })])).toBe(
      `$argon2d$v=19$m=1024,t=3,p=1$${s}$${v}`,
    );
    const bad = 'argon2 parameters idp does not take (type id, i or d; version 1.3 or 1.0; 1..100 passes; 1..16 lanes)';
    expect(reasonOf({ credentials: [argon2Credential({ memory: ['1024'], type: ['x'] })] })).toBe(bad);
    expect(reasonOf({ credentials: [argon2Credential({ memory: ['1024'], version: ['2.0'] })] })).toBe(bad);
    expect(reasonOf({ credentials: [argon2Credential({ memory: ['1024'] }, 101)] })).toBe(bad);
    expect(reasonOf({ credentials: [argon2Credential({ memory: ['1024'], parallelism: ['17'] })] })).toBe(bad);
    expect(reasonOf({ credentials: [argon2Credential({ memory: [{}] })] })).toBe(
      'argon2 memory of null KiB is outside 8 per lane..1048576',
    );
    expect(reasonOf({ credentials: [argon2Credential(undefined)] })).toBe(
      'argon2 memory of null KiB is outside 8 per lane..1048576',
    );
    expect(reasonOf({ credentials: [argon2Credential({ memory: ['15'], parallelism: ['2'] })] })).toBe(
      'argon2 memory of 15 KiB is outside 8 per lane..1048576',
    );
    expect(reasonOf({ credentials: [argon2Credential({ memory: ['2000000'] })] })).toBe(
      'argon2 memory of 2000000 KiB is outside 8 per lane..1048576',
    );
  });

  it('takes the authenticator app idp can check: its UTF-8 secret, or a BASE32 one', () => {
    const totpOf = (credential: unknown) => {
      const entry = one({ credentials: [credential] });
      return 'user' in entry ? entry.user.totpSecret : entry.refusal.reason;
    };
    expect(totpOf(otpCredential('12345678901234567890'))).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(totpOf(otpCredential('jbsw y3dp ehpk 3pxp==', { secretEncoding: 'base32' }))).toBe('JBSWY3DPEHPK3PXP');
    expect(totpOf(otpCredential('JBSW1', { secretEncoding: 'BASE32' }))).toBe(
      'an otp secret in encoding "BASE32" idp cannot read',
    );
    expect(totpOf(otpCredential('abc', { secretEncoding: 'HEX' }))).toBe(
      'an otp secret in encoding "HEX" idp cannot read',
    );
    expect(totpOf(otpCredential(''))).toBe('the otp credential has no readable secretData and credentialData');
    expect(totpOf({ type: 'otp', secretData: '{"value":"abc"}' })).toBe(
      'the otp credential has no readable secretData and credentialData',
    );
    for (const [data, shown] of [
      [{ algorithm: 'HmacSHA256' }, 'totp, HmacSHA256, 6 digits, 30 s'],
      [{ digits: 8 }, 'totp, HmacSHA1, 8 digits, 30 s'],
      [{ period: 60 }, 'totp, HmacSHA1, 6 digits, 60 s'],
    ] as const)
      expect(totpOf(otpCredential('abc', data))).toBe(
        `an authenticator app idp cannot check (${shown}): idp takes totp, HmacSHA1, 6 digits, 30 s`,
      );
  });
});

describe('reading an Auth0 export', () => {
  const auth0 = (lines: unknown[]) =>
    readAuth0Export(lines.map((line) => JSON.stringify(line)).join('\r\n'), 'a.ndjson');
  const bcryptHash = '$2b$10$.qHPp/srqo1NAAAAAvlkmOdqAbH2Rg0qPv2Txj3ZwXfjJnewSjc4m';

  it('reads NDJSON lines and JSON arrays; refuses entries that are no user, blocked, or without an address', () => {
    expect(
      auth0([{ email: 'a@example.com', name: 'a@example.com', given_name: 'A', passwordHash: bcryptHash }]),
    ).toEqual([
      {
        user: {
          at: 'a.ndjson:1',
          email: 'a@example.com',
          emailVerified: false,
          givenName: 'A',
          familyName: null,
          name: null,
          passwordHash: bcryptHash,
          totpSecret: null,
        },
      },
    ]);
    expect(readAuth0Export('  [{"email":"b@example.com","name":"Bee"}, 3]', 'a.json')).toEqual([
      { user: expect.objectContaining({ at: 'a.json [0]', name: 'Bee', passwordHash: null }) },
      { refusal: { at: 'a.json [1]', email: null, reason: 'not a user object' } },
    ]);
    expect(
      auth0([
        { email: 'c@example.com', blocked: true },
        { identifiers: [null, { type: 'phone_number', value: '+1' }] },
        { identifiers: 'x' },
        { email: 'nope' },
      ]),
    ).toEqual([
      { refusal: { at: 'a.ndjson:1', email: 'c@example.com', reason: 'blocked in Auth0' } },
      { refusal: { at: 'a.ndjson:2', email: null, reason: 'no e-mail address' } },
      { refusal: { at: 'a.ndjson:3', email: null, reason: 'no e-mail address' } },
      { refusal: { at: 'a.ndjson:4', email: 'nope', reason: '"nope" is not an e-mail address' } },
    ]);
    expect(auth0([{ identifiers: [{ type: 'email', value: 'd@example.com', verified: true }] }])).toMatchObject([
      { user: { email: 'd@example.com', emailVerified: true } },
    ]);
  });

  it.each([
    [{ passwordHash: 'e3b0c442' }, 'passwordHash is not a bcrypt hash'],
    [
      { custom_password_hash: { algorithm: 'bcrypt', hash: { value: 'x' } } },
      'custom_password_hash is not a bcrypt hash',
    ],
    [{ custom_password_hash: { algorithm: 'bcrypt' } }, 'custom_password_hash is not a bcrypt hash'],
    [
      { custom_password_hash: { algorithm: 'argon2', hash: { value: '$argon2id$x' } } },
      'custom_password_hash is not an argon2 PHC string',
    ],
    [
      { custom_password_hash: { algorithm: 'pbkdf2', hash: { value: '$pbkdf2$x' } } },
      'custom_password_hash is not a pbkdf2 PHC string',
    ],
    [
      {
        custom_password_hash: {
          algorithm: 'pbkdf2',
          hash: { value: `$pbkdf2-sha512$i=10,l=64$${salt.replace(/=+$/, '')}$${value.replace(/=+$/, '')}` },
        },
      },
      '10 PBKDF2 iterations is outside 1000..10000000',
    ],
    [{ custom_password_hash: { algorithm: 'md5', hash: { value: 'x' } } }, 'unknown password hash algorithm "md5"'],
  ])('refuses a user whose hash it cannot take (case %#)', (fields, reason) => {
    expect(auth0([{ email: 'e@example.com', ...fields }])).toEqual([
      { refusal: { at: 'a.ndjson:1', email: 'e@example.com', reason } },
    ]);
  });

  it('takes custom_password_hash in bcrypt, argon2 and pbkdf2', () => {
    const hashOfCustom = (algorithm: string, text: string) => {
      const [entry] = auth0([{ email: 'f@example.com', custom_password_hash: { algorithm, hash: { value: text } } }]);
      return 'user' in entry ? entry.user.passwordHash : entry.refusal.reason;
    };
    expect(hashOfCustom('bcrypt', bcryptHash)).toBe(bcryptHash);
    const argon = '$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo';
    expect(hashOfCustom('argon2', argon)).toBe(argon);
    const [s, v] = [salt.replace(/=+$/, ''), value.replace(/=+$/, '')];
    expect(hashOfCustom('pbkdf2', `$pbkdf2-sha512$i=100000,l=64$${s}$${v}`)).toBe(`$pbkdf2-sha512$i=100000$${s}$${v}`);
    expect(auth0([{ email: 'g@example.com', custom_password_hash: null }])).toMatchObject([
      { user: { passwordHash: null } },
    ]);
  });

  it('refuses a file with no users, or malformed JSON, with its place', () => {
    expect(() => readAuth0Export('\n \n', 'a.ndjson')).toThrow(
      'a.ndjson: no users (an Auth0 export is one JSON user per line)',
    );
    expect(() => readAuth0Export('{"email":"a@example.com"}\n{"email":', 'a.ndjson')).toThrow(
      'a.ndjson:2:10: malformed JSON: Unexpected end of JSON input',
    );
    expect(() => readAuth0Export('[{"email":1}', 'a.json')).toThrow(/^a\.json:1:\d+: malformed JSON: /);
  });
});

describe('import helpers', () => {
  it('places a JSON error by line and column', () => {
    expect(() => parseJson('{\n  "a": 1,\n  "b" 2\n}', 'f.json')).toThrow(/^f\.json:3:7: malformed JSON: /);
    expect(() => parseJson('', 'f.json', 4)).toThrow('f.json:5:1: malformed JSON: Unexpected end of JSON input');
  });

  it('writes RFC 4648 base32 (its test vectors, without padding)', () => {
    for (const [text, expected] of [
      ['', ''],
      ['f', 'MY'],
      ['fo', 'MZXQ'],
      ['foo', 'MZXW6'],
      ['foob', 'MZXW6YQ'],
      ['fooba', 'MZXW6YTB'],
      ['foobar', 'MZXW6YTBOI'],
    ])
      expect(base32(Buffer.from(text))).toBe(expected);
  });
});
