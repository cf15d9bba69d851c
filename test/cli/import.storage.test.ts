import { createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import argon2 from 'argon2';
import bcrypt from 'bcryptjs';
import { authenticator } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createCapturedOutput } from '../../src/cli/output.js';
import { testConfig } from '../support/config-fixture.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { createTestApp, inject, seedUser, sessionCookieOf, type TestApp } from '../support/test-app.js';

/**
 * `idp import keycloak|auth0` (docs/operations.md, "Migrating from Keycloak
 * and Auth0") on the database of a real app: the hashes are made here as
 * Keycloak and Auth0 make them (node's pbkdf2, argon2 raw, bcryptjs), the
 * users then sign in through the HTTP API with their original passwords and
 * authenticator apps, and the stored hash is argon2id after.
 */

/** A Keycloak `password` credential as a realm export carries it. */
function keycloakPassword(
  password: string,
  algorithm: 'pbkdf2' | 'pbkdf2-sha256' | 'pbkdf2-sha512',
  iterations: number,
) {
  const salt = randomBytes(16);
  const digest = { pbkdf2: 'sha1', 'pbkdf2-sha256': 'sha256', 'pbkdf2-sha512': 'sha512' }[algorithm];
  const value = pbkdf2Sync(password, salt, iterations, 64, digest);
  return {
    id: randomBytes(8).toString('hex'),
    type: 'password',
    userLabel: 'My password',
    createdDate: 1_700_000_000_000,
    secretData: JSON.stringify({
      value: value.toString('base64'),
      salt: salt.toString('base64'),
      additionalParameters: {},
    }),
    credentialData: JSON.stringify({ hashIterations: iterations, algorithm, additionalParameters: {} }),
  };
}

/** Keycloak's argon2 credential: the raw hash and salt, the parameters as lists of strings. */
async function keycloakArgon2(password: string) {
  const salt = randomBytes(16);
  const value = await argon2.hash(password, {
    type: argon2.argon2id,
    raw: true,
    salt,
    memoryCost: 7168,
    timeCost: 5,
    parallelism: 1,
    hashLength: 32,
  });
  return {
    type: 'password',
    secretData: JSON.stringify({
      value: value.toString('base64'),
      salt: salt.toString('base64'),
      additionalParameters: {},
    }),
    credentialData: JSON.stringify({
      hashIterations: 5,
      algorithm: 'argon2',
      additionalParameters: {
        hashLength: ['32'],
        memory: ['7168'],
        type: ['id'],
        version: ['1.3'],
        parallelism: ['1'],
      },
    }),
  };
}

/** Keycloak's otp credential: without secretEncoding the secret is the UTF-8 text itself. */
function keycloakOtp(value: string, data: Record<string, unknown> = {}) {
  return {
    type: 'otp',
    userLabel: 'Phone',
    secretData: JSON.stringify({ value }),
    credentialData: JSON.stringify({
      subType: 'totp',
      digits: 6,
      counter: 0,
      period: 30,
      algorithm: 'HmacSHA1',
      ...data,
    }),
  };
}

const keycloakUser = (email: string | undefined, credentials: unknown[], extra: Record<string, unknown> = {}) => ({
  id: randomBytes(8).toString('hex'),
  createdTimestamp: 1_700_000_000_000,
  username: email ?? 'someone',
  enabled: true,
  totp: false,
  emailVerified: true,
  ...(email === undefined ? {} : { email }),
  credentials,
  disableableCredentialTypes: [],
  requiredActions: [],
  realmRoles: ['default-roles-acme'],
  notBefore: 0,
  groups: [],
  ...extra,
});

/** RFC 6238 (HMAC-SHA-1, 6 digits, 30 s) over the key's bytes, as Keycloak and the phone that scanned its QR code compute it. */
function rfc6238Code(key: Buffer, time: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(time / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** Keycloak's own TOTP secrets are 20 characters of text; the QR code carries their bytes in base32. */
const adaOtpText = 'kx7Qf1HvT2pLm9Zr4Wc8';
const kenOtpBase32 = 'JBSWY3DPEHPK3PXP';

describe.each(databaseKinds)('idp import on %s', (kind) => {
  let t: TestApp;
  let dir: string;
  let configFile: string;
  let realmFile: string;
  let auth0File: string;
  let auth0ArrayFile: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-import-'));
    configFile = path.join(dir, 'idp.yaml');
    await writeFile(configFile, configYaml(t.database, testConfig().security.secret));
    await seedUser(t, { sub: 'taken', email: 'taken@example.com' });

    realmFile = path.join(dir, 'realm.json');
    const realm = {
      id: 'acme',
      realm: 'acme',
      enabled: true,
      otpPolicyType: 'totp',
      users: [
        keycloakUser(
          'ada@example.com',
          [keycloakPassword('ada password 1', 'pbkdf2-sha256', 27_500), keycloakOtp(adaOtpText)],
          {
            firstName: 'Ada',
            lastName: 'Lovelace',
            totp: true,
          },
        ),
        keycloakUser('grace@example.com', [keycloakPassword('grace password 2', 'pbkdf2-sha512', 210_000)], {
          emailVerified: false,
          firstName: 'Grace',
        }),
        keycloakUser('linus@example.com', [await keycloakArgon2('linus password 3')]),
        keycloakUser('ken@example.com', [
          keycloakPassword('ken password 4', 'pbkdf2', 27_500),
          keycloakOtp(kenOtpBase32, { secretEncoding: 'BASE32' }),
        ]),
        keycloakUser('ldap@example.com', []),
        keycloakUser(undefined, [], { username: 'service-account-billing', serviceAccountClientId: 'billing' }),
        keycloakUser('off@example.com', [keycloakPassword('x', 'pbkdf2-sha256', 27_500)], { enabled: false }),
        keycloakUser('md5@example.com', [
          {
            type: 'password',
            secretData: '{"value":"c2VjcmV0","salt":""}',
            credentialData: '{"hashIterations":1,"algorithm":"md5"}',
          },
        ]),
        keycloakUser('hotp@example.com', [
          keycloakPassword('x', 'pbkdf2-sha256', 27_500),
          keycloakOtp('abc', { subType: 'hotp' }),
        ]),
        keycloakUser('TAKEN@example.com', [keycloakPassword('x', 'pbkdf2-sha256', 27_500)]),
        keycloakUser('dup@example.com', [keycloakPassword('x', 'pbkdf2-sha256', 27_500)]),
        keycloakUser('Dup@Example.com', [keycloakPassword('y', 'pbkdf2-sha256', 27_500)]),
        keycloakUser(undefined, [], { username: 'nomail' }),
      ],
    };
    await writeFile(realmFile, JSON.stringify(realm, null, 2));

    // The password hashes export Auth0's support hands out: NDJSON, bcrypt.
    auth0File = path.join(dir, 'auth0.ndjson');
    await writeFile(
      auth0File,
      [
        {
          _id: { $oid: '5dea9f9c82dd7c0e76e4ec93' },
          email_verified: true,
          email: 'nico@example.com',
          passwordHash: bcrypt.hashSync('nico password 5', 10),
          password_set_date: { $date: '2019-12-06T18:36:12.412Z' },
          tenant: 'acme',
          connection: 'Username-Password-Authentication',
          _tmp_is_unique: true,
        },
        {
          _id: { $oid: '5dea9f9c82dd7c0e76e4ec94' },
          passwordHash: bcrypt.hashSync('mia password 6', 10).replace(/^\$2b\$/, '$2a$'),
          identifiers: [{ type: 'email', value: 'mia@example.com', verified: true }],
          connection: 'Username-Password-Authentication',
        },
        {
          _id: { $oid: '5dea9f9c82dd7c0e76e4ec95' },
          email: 'sha@example.com',
          passwordHash: 'e3b0c44298fc1c149afbf4c8996fb924',
        },
      ]
        .map((user) => JSON.stringify(user))
        .join('\n') + '\n',
    );
    // The bulk import format, as an array: custom_password_hash, names.
    auth0ArrayFile = path.join(dir, 'auth0-users.json');
    await writeFile(
      auth0ArrayFile,
      JSON.stringify([
        {
          email: 'zoe@example.com',
          email_verified: false,
          given_name: 'Zoe',
          family_name: 'Quinn',
          name: 'Zoe Quinn',
          custom_password_hash: { algorithm: 'bcrypt', hash: { value: bcrypt.hashSync('zoe password 7', 10) } },
        },
      ]),
    );
  });
  afterAll(async () => {
    await t.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  async function idp(...args: string[]) {
    const output = createCapturedOutput();
    const code = await main([...args, '-c', configFile], { output, env: {}, cwd: dir });
    return { code, stdout: output.stdout, stderr: output.stderr };
  }
  const db = () => t.database.db;
  const userCount = async () => Number((await db()('users').count({ n: '*' }))[0].n);
  const eventCount = async () => Number((await db()('events').count({ n: '*' }))[0].n);
  const stored = async (email: string) => db()('users').where({ email }).first();

  const login = (email: string, password: string) =>
    inject(t, 'POST', '/api/auth/login', undefined, { email, password });

  it('plans a Keycloak import on --dry-run: who is created with what, who is skipped and why; writes nothing', async () => {
    const [users, events] = [await userCount(), await eventCount()];
    const result = await idp('import', 'keycloak', 'realm.json', '--dry-run');
    expect(result.stderr).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.stdout).toEqual([
      'create ada@example.com (realm.json users[0]): password pbkdf2-sha256, address verified, authenticator app',
      'create grace@example.com (realm.json users[1]): password pbkdf2-sha512, address not verified',
      'create linus@example.com (realm.json users[2]): password argon2id, address verified',
      'create ken@example.com (realm.json users[3]): password pbkdf2-sha1, address verified, authenticator app',
      'create ldap@example.com (realm.json users[4]): no password (a reset gives one), address verified',
      'skip   (no address) (realm.json users[5]): the service account of client billing, not a person',
      'skip   off@example.com (realm.json users[6]): disabled in Keycloak',
      'skip   md5@example.com (realm.json users[7]): unknown password hash algorithm "md5"',
      'skip   hotp@example.com (realm.json users[8]): an authenticator app idp cannot check (hotp, HmacSHA1, 6 digits, 30 s): idp takes totp, HmacSHA1, 6 digits, 30 s',
      'skip   TAKEN@example.com (realm.json users[9]): an account with this address exists already',
      'skip   dup@example.com (realm.json users[10]): the address is also at realm.json users[11]',
      'skip   Dup@Example.com (realm.json users[11]): the address is also at realm.json users[10]',
      'skip   (no address) (realm.json users[12]): no e-mail address (username nomail)',
      'dry run: 5 users to create, 8 skipped; nothing was written',
    ]);
    expect([await userCount(), await eventCount()]).toEqual([users, events]);
  });

  it('imports Keycloak users: the original passwords sign in, the authenticator apps work, and the hashes become argon2id', async () => {
    const result = await idp('import', 'keycloak', realmFile);
    expect(result.code).toBe(0);
    expect(result.stdout.at(-1)).toBe('imported 5 users from keycloak, 8 skipped');
    expect(result.stdout.filter((line) => line.startsWith('create'))).toEqual([]);

    const ada = await stored('ada@example.com');
    expect(ada).toMatchObject({
      managed_by: 'database',
      role: 'user',
      name: 'Ada Lovelace',
      given_name: 'Ada',
      family_name: 'Lovelace',
    });
    expect(ada.password_hash).toMatch(/^\$pbkdf2-sha256\$i=27500\$/);
    expect(Boolean(ada.email_verified)).toBe(true);
    expect(Boolean((await stored('grace@example.com')).email_verified)).toBe(false);
    expect((await stored('ldap@example.com')).password_hash).toBeNull();
    // Sealed like the app's own: the base32 text is not in the row.
    const secretRow = await db()('totp_credentials').where({ sub: ada.sub }).first();
    expect(secretRow.secret).toMatch(/^v1\./);
    expect(secretRow.secret).not.toContain(adaOtpText);
    expect(secretRow.confirmed_at).not.toBeNull();

    const events = await db()('events').where({ type: 'user.imported' }).orderBy('id');
    expect(events).toHaveLength(5);
    expect(events[0]).toMatchObject({ actor: 'import', subject: ada.sub });
    expect(JSON.parse(events[0].detail)).toEqual({ source: 'keycloak', password: 'pbkdf2-sha256', totp: true });

    // A wrong password is refused, and the imported hash stays.
    expect((await login('grace@example.com', 'grace password')).statusCode).toBe(401);
    expect((await stored('grace@example.com')).password_hash).toMatch(/^\$pbkdf2-sha512\$i=210000\$/);

    const grace = await login('grace@example.com', 'grace password 2');
    expect(grace.statusCode).toBe(200);
    expect(grace.json().user).toMatchObject({ email: 'grace@example.com' });
    expect((await stored('grace@example.com')).password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    // The new hash takes the same password.
    expect((await login('grace@example.com', 'grace password 2')).statusCode).toBe(200);
    // Keycloak's argon2id is argon2id already: it signs in and stays as it is.
    const linusHash = (await stored('linus@example.com')).password_hash;
    expect(linusHash).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$/);
    expect((await login('linus@example.com', 'linus password 3')).statusCode).toBe(200);
    expect((await stored('linus@example.com')).password_hash).toBe(linusHash);

    // The code of the app that scanned Keycloak's QR code (the secret's bytes, HMAC-SHA-1), and of a BASE32 secret.
    for (const [email, password, code] of [
      ['ada@example.com', 'ada password 1', rfc6238Code(Buffer.from(adaOtpText), Date.now())],
      ['ken@example.com', 'ken password 4', authenticator.generate(kenOtpBase32)],
    ]) {
      const pending = await login(email, password);
      expect(pending.json(), email).toMatchObject({
        status: 'second_factor_required',
        // No recovery codes come from Keycloak: the account page asks for new ones.
        factors: ['totp'],
      });
      const cookie = sessionCookieOf(pending.headers['set-cookie']);
      expect((await inject(t, 'POST', '/api/auth/login/totp', cookie, { code: '000000' })).statusCode).toBe(401);
      const done = await inject(t, 'POST', '/api/auth/login/totp', cookie, { code });
      expect(done.statusCode, email).toBe(200);
      expect(done.json().user, email).toMatchObject({
        email,
        totp_registered: true,
        totp_recovery_codes_missing: true,
      });
      expect((await stored(email)).password_hash, email).toMatch(/^\$argon2id\$/);
      // A code seen once (a shoulder, a phishing page) does not sign in again: the imported app is replay-safe too.
      const again = await login(email, password);
      const replay = await inject(t, 'POST', '/api/auth/login/totp', sessionCookieOf(again.headers['set-cookie']), {
        code,
      });
      expect(replay.statusCode, email).toBe(401);
      expect(replay.json(), email).toMatchObject({ code: 'INVALID_CODE' });
    }
  });

  it('imports an Auth0 password hashes export (NDJSON, bcrypt) and a bulk-format array', async () => {
    expect((await idp('import', 'auth0', 'auth0-users.json', '--dry-run')).stdout).toEqual([
      'create zoe@example.com (auth0-users.json [0]): password bcrypt, address not verified',
      'dry run: 1 user to create, 0 skipped; nothing was written',
    ]);
    const result = await idp('import', 'auth0', 'auth0.ndjson', 'auth0-users.json');
    expect(result.stdout).toEqual([
      'skip   sha@example.com (auth0.ndjson:3): passwordHash is not a bcrypt hash',
      'imported 3 users from auth0, 1 skipped',
    ]);
    expect(await stored('zoe@example.com')).toMatchObject({
      given_name: 'Zoe',
      family_name: 'Quinn',
      name: 'Zoe Quinn',
    });
    expect(Boolean((await stored('mia@example.com')).email_verified)).toBe(true);
    for (const [email, password] of [
      ['nico@example.com', 'nico password 5'],
      ['mia@example.com', 'mia password 6'],
      ['zoe@example.com', 'zoe password 7'],
    ]) {
      expect((await stored(email)).password_hash, email).toMatch(/^\$2[ab]\$10\$/);
      expect((await login(email, password)).statusCode, email).toBe(200);
      expect((await stored(email)).password_hash, email).toMatch(/^\$argon2id\$/);
    }
    // Run again: every address is taken now, and nothing changes.
    const again = await idp('import', 'auth0', auth0File);
    expect(again.stdout.at(-1)).toBe('imported 0 users from auth0, 3 skipped');
  });

  it('keeps a rehash from undoing a password changed meanwhile, and leaves a config-managed hash to the file', async () => {
    const users = t.database.storage.repositories.users;
    const grace = await stored('grace@example.com');
    expect(await users.replacePasswordHash(t.database.tx, grace.sub, 'an older hash', 'x')).toBe(false);
    expect((await stored('grace@example.com')).password_hash).toBe(grace.password_hash);

    const salt = randomBytes(16);
    const key = pbkdf2Sync('file password', salt, 27_500, 32, 'sha256');
    const hash = `$pbkdf2-sha256$i=27500$${salt.toString('base64').replace(/=+$/, '')}$${key.toString('base64').replace(/=+$/, '')}`;
    await seedUser(t, { sub: 'from-file', email: 'from-file@example.com', managedBy: 'config', passwordHash: hash });
    expect((await login('from-file@example.com', 'file password')).statusCode).toBe(200);
    expect((await stored('from-file@example.com')).password_hash).toBe(hash);
  });

  it.each([
    [['import', 'ldap', 'realm.json'], 2, 'error: unknown import source "ldap" (expected keycloak or auth0)'],
    [['import', 'keycloak', 'missing.json'], 1, 'error: missing.json: cannot read the file (ENOENT)'],
  ])('%j exits %i with one line', async (args, code, line) => {
    expect(await idp(...args)).toEqual({ code, stdout: [], stderr: [line] });
  });

  it('refuses a malformed file with its line and column, before writing anything', async () => {
    const [users, events] = [await userCount(), await eventCount()];
    await writeFile(path.join(dir, 'broken.json'), '{\n  "users": [\n    { "email": "a@example.com",, }\n  ]\n}\n');
    await writeFile(path.join(dir, 'truncated.json'), '{ "users": [ { "email": ');
    await writeFile(path.join(dir, 'list.json'), '[{ "users": [] }]');
    await writeFile(
      path.join(dir, 'broken.ndjson'),
      '{"email":"b@example.com"}\n\n{"email": "c@example.com" "x": 1}\n',
    );
    await writeFile(path.join(dir, 'empty.ndjson'), '\n\n');
    for (const [args, line] of [
      [['keycloak', 'broken.json'], 'error: broken.json:3:32: malformed JSON: Expected double-quoted property name'],
      [['keycloak', 'truncated.json'], 'error: truncated.json:1:25: malformed JSON: Unexpected end of JSON input'],
      [
        ['keycloak', 'list.json'],
        'error: list.json: not a Keycloak realm export with users (no "users" list): export with kc.sh export --users same_file',
      ],
      [
        ['auth0', 'broken.ndjson'],
        "error: broken.ndjson:3:27: malformed JSON: Expected ',' or '}' after property value",
      ],
      [['auth0', 'empty.ndjson'], 'error: empty.ndjson: no users (an Auth0 export is one JSON user per line)'],
      // One good file and one bad: nothing from the good one either.
      [
        ['auth0', auth0ArrayFile, 'broken.ndjson'],
        "error: broken.ndjson:3:27: malformed JSON: Expected ',' or '}' after property value",
      ],
    ] as const) {
      const result = await idp('import', ...args);
      expect({ code: result.code, stderr: result.stderr }, args.join(' ')).toEqual({ code: 1, stderr: [line] });
    }
    expect([await userCount(), await eventCount()]).toEqual([users, events]);
  });
});

describe.each(databaseKinds)('idp import on %s, all or nothing', (kind) => {
  let t: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-import-'));
    // No security.secret: TOTP secrets are sealed with the generated one serve would use.
    await writeFile(path.join(dir, 'idp.yaml'), configYaml(t, null));
  });
  afterAll(async () => {
    await t.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  const idp = async (...args: string[]) => {
    const output = createCapturedOutput();
    const code = await main([...args, '-c', 'idp.yaml'], { output, env: {}, cwd: dir });
    return { code, stdout: output.stdout, stderr: output.stderr };
  };

  // On the embedded default only: the PostgreSQL path is the same batched code, and the 100k run costs CI half a minute per engine.
  it.runIf(kind === 'sqlite')('imports 100k users in one run, hashes copied', { timeout: 240_000 }, async () => {
    const credential = keycloakPassword('same password', 'pbkdf2-sha256', 27_500);
    // Every tenth with an authenticator app: their secrets are sealed and written in batches too.
    const users = Array.from({ length: 100_000 }, (_, i) =>
      keycloakUser(`user${i}@example.com`, i % 10 === 0 ? [credential, keycloakOtp(`secret-${i}`)] : [credential]),
    );
    await writeFile(path.join(dir, 'big.json'), JSON.stringify({ realm: 'big', users }));
    const result = await idp('import', 'keycloak', 'big.json');
    expect(result.stdout).toEqual(['imported 100000 users from keycloak, 0 skipped']);
    expect(Number((await t.db('users').count({ n: '*' }))[0].n)).toBe(100_000);
    expect(Number((await t.db('events').where({ type: 'user.imported' }).count({ n: '*' }))[0].n)).toBe(100_000);
    expect(Number((await t.db('totp_credentials').count({ n: '*' }))[0].n)).toBe(10_000);
  });

  it('rolls everything back on a database error: not one user stays', async () => {
    const before = Number((await t.db('users').count({ n: '*' }))[0].n);
    const authenticators = Number((await t.db('totp_credentials').count({ n: '*' }))[0].n);
    // The users and authenticators are written, then the events fail: the whole run must go.
    await t.db.schema.dropTable('events');
    await writeFile(
      path.join(dir, 'realm.json'),
      JSON.stringify({
        realm: 'r',
        users: [keycloakUser('new@example.com', [keycloakPassword('p', 'pbkdf2-sha256', 27_500), keycloakOtp('abc')])],
      }),
    );
    const result = await idp('import', 'keycloak', 'realm.json');
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual([
      expect.stringContaining('warning: security: no security.secret'),
      kind === 'sqlite'
        ? 'error: the import failed and was rolled back, nothing was imported: SQLITE_ERROR: no such table: events'
        : 'error: the import failed and was rolled back, nothing was imported: relation "events" does not exist',
    ]);
    expect(Number((await t.db('users').count({ n: '*' }))[0].n)).toBe(before);
    expect(Number((await t.db('totp_credentials').count({ n: '*' }))[0].n)).toBe(authenticators);
  });
});

function configYaml(database: TestDatabase, secret: string | null): string {
  const db =
    database.kind === 'sqlite'
      ? `  client: sqlite\n  filename: ${JSON.stringify(database.config.filename)}\n`
      : `  client: postgres\n  url: ${JSON.stringify(database.config.url)}\n`;
  return `database:\n${db}${secret === null ? '' : `security:\n  secret: ${JSON.stringify(secret)}\n`}`;
}
