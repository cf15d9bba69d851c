import { pbkdf2Hash, type Pbkdf2Digest } from '../imported-password-hashes.js';
import {
  base32,
  ImportFileError,
  isImportableEmail,
  parseJson,
  textOrNull,
  type ImportEntry,
  type ImportRefusal,
} from './imported-user.js';

/**
 * The users of a Keycloak realm export (`kc.sh export --realm R --users
 * same_file`, or one of the realm-users-N.json files of `--users
 * different_files`, whose realm file brings none): `users[]` with `email`, `emailVerified`, `firstName`,
 * `lastName` and `credentials[]`. A `password` credential carries
 * `secretData` `{value, salt}` and `credentialData` `{hashIterations,
 * algorithm, additionalParameters}` as JSON strings (exports older than
 * Keycloak 9 put `hashedSaltedValue`, `salt`, `hashIterations` and
 * `algorithm` on the credential itself); an `otp` credential carries the
 * secret in `secretData.value` and `{subType, digits, period, algorithm,
 * secretEncoding}` in `credentialData`.
 */
export function readKeycloakExport(text: string, file: string): ImportEntry[] {
  const realm = parseJson(text, file) as { realm?: unknown; users?: unknown } | null;
  const users = realm?.users;
  // The realm file of `--users different_files` names the realm and leaves the users to the other files.
  if (typeof realm?.realm === 'string' && users === undefined) return [];
  if (typeof realm !== 'object' || realm === null || Array.isArray(realm) || !Array.isArray(users))
    throw new ImportFileError(
      `${file}: not a Keycloak realm export with users (no "users" list): export with kc.sh export --users same_file`,
    );
  return users.map((user: unknown, index) => keycloakUser(user, `${file} users[${index}]`));
}

type Json = Record<string, unknown>;

const pbkdf2Digests: Partial<Record<string, Pbkdf2Digest>> = {
  pbkdf2: 'sha1',
  'pbkdf2-sha256': 'sha256',
  'pbkdf2-sha512': 'sha512',
};
const argon2Types: Partial<Record<string, string>> = { id: 'argon2id', i: 'argon2i', d: 'argon2d' };
const argon2Versions: Partial<Record<string, number>> = { '1.3': 19, '1.0': 16 };
const base64 = /^[A-Za-z0-9+/]+={0,2}$/;

function keycloakUser(value: unknown, at: string): ImportEntry {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { refusal: { at, email: null, reason: 'not a user object' } };
  const user = value as Json;
  const email = textOrNull(user.email);
  const refuse = (reason: string): { refusal: ImportRefusal } => ({ refusal: { at, email, reason } });
  if (typeof user.serviceAccountClientId === 'string')
    return refuse(`the service account of client ${user.serviceAccountClientId}, not a person`);
  if (user.enabled === false) return refuse('disabled in Keycloak');
  if (email === null) return refuse(`no e-mail address (username ${String(user.username)})`);
  if (!isImportableEmail(email)) return refuse(`"${email}" is not an e-mail address`);

  const credentials = Array.isArray(user.credentials) ? (user.credentials as unknown[]) : [];
  const ofType = (type: string) =>
    credentials.filter((c): c is Json => typeof c === 'object' && c !== null && (c as Json).type === type);
  const password = ofType('password').at(0);
  const passwordHash = password === undefined ? { hash: null } : keycloakPasswordHash(password);
  if ('problem' in passwordHash) return refuse(passwordHash.problem);
  const otp = ofType('otp').at(0);
  const totp = otp === undefined ? { secret: null } : keycloakTotpSecret(otp);
  if ('problem' in totp) return refuse(totp.problem);

  const givenName = textOrNull(user.firstName);
  const familyName = textOrNull(user.lastName);
  return {
    user: {
      at,
      email,
      emailVerified: user.emailVerified === true,
      givenName,
      familyName,
      name: [givenName, familyName].filter((part) => part !== null).join(' ') || null,
      passwordHash: passwordHash.hash,
      totpSecret: totp.secret,
    },
  };
}

/** A credential's secretData or credentialData: a JSON string in a realm export (an object is taken as well). */
function embedded(credential: Json, field: string): Json | null {
  const value = credential[field];
  if (typeof value === 'object' && value !== null) return value as Json;
  if (typeof value !== 'string') return null;
  try {
    const parsed = JSON.parse(value) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Json) : null;
  } catch {
    return null;
  }
}

/** A Keycloak additionalParameters entry: a list of strings (MultivaluedHashMap), or a plain value. */
function firstParameter(parameters: unknown, key: string): string | null {
  const value = (parameters as Json | null | undefined)?.[key];
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' || typeof first === 'number' ? String(first) : null;
}

function keycloakPasswordHash(credential: Json): { hash: string } | { problem: string } {
  const legacy = typeof credential.hashedSaltedValue === 'string';
  const secret = legacy
    ? { value: credential.hashedSaltedValue, salt: credential.salt }
    : embedded(credential, 'secretData');
  const data = legacy
    ? { algorithm: credential.algorithm, hashIterations: credential.hashIterations }
    : embedded(credential, 'credentialData');
  if (secret === null || data === null)
    return { problem: 'the password credential has no readable secretData and credentialData' };
  const algorithm = String(data.algorithm);
  const digest = pbkdf2Digests[algorithm];
  if (digest === undefined && algorithm !== 'argon2')
    return { problem: `unknown password hash algorithm "${algorithm}"` };
  const { value, salt } = secret;
  if (typeof value !== 'string' || !base64.test(value) || typeof salt !== 'string' || !base64.test(salt))
    return { problem: `the ${algorithm} password hash or its salt is not base64` };
  const iterations = Number(data.hashIterations);
  if (digest !== undefined)
    return pbkdf2Hash(digest, iterations, Buffer.from(salt, 'base64'), Buffer.from(value, 'base64'));
  return argon2Hash(data.additionalParameters, iterations, salt, value);
}

/** Keycloak's argon2 (raw salt and hash, the parameters beside them) as the PHC string node's argon2 verifies. */
function argon2Hash(parameters: unknown, iterations: number, salt: string, value: string) {
  const type = argon2Types[firstParameter(parameters, 'type') ?? 'id'];
  const version = argon2Versions[firstParameter(parameters, 'version') ?? '1.3'];
  const memory = Number(firstParameter(parameters, 'memory'));
  const parallelism = Number(firstParameter(parameters, 'parallelism') ?? 1);
  const bounded = (n: number, max: number) => Number.isInteger(n) && n >= 1 && n <= max;
  // The bounds of a sign-in's cost: Keycloak's own maximum of 100 passes, 1 GiB, 16 lanes.
  if (type === undefined || version === undefined || !bounded(iterations, 100) || !bounded(parallelism, 16))
    return {
      problem: 'argon2 parameters idp does not take (type id, i or d; version 1.3 or 1.0; 1..100 passes; 1..16 lanes)',
    };
  if (!bounded(memory, 1_048_576) || memory < 8 * parallelism)
    return {
      problem: `argon2 memory of ${String(firstParameter(parameters, 'memory'))} KiB is outside 8 per lane..1048576`,
    };
  const unpadded = (text: string) => text.replace(/=+$/, '');
  return {
    hash: `$${type}$v=${version}$m=${memory},t=${iterations},p=${parallelism}$${unpadded(salt)}$${unpadded(value)}`,
  };
}

/** The TOTP of an otp credential, when it is what idp's verifier computes (HMAC-SHA-1, 6 digits, 30 s). */
function keycloakTotpSecret(credential: Json): { secret: string } | { problem: string } {
  const data = embedded(credential, 'credentialData');
  const value = embedded(credential, 'secretData')?.value;
  if (data === null || typeof value !== 'string' || value === '')
    return { problem: 'the otp credential has no readable secretData and credentialData' };
  const { subType, digits, period, algorithm } = data;
  if (subType !== 'totp' || Number(digits) !== 6 || Number(period) !== 30 || algorithm !== 'HmacSHA1')
    return {
      problem: `an authenticator app idp cannot check (${String(subType)}, ${String(algorithm)}, ${String(digits)} digits, ${String(period)} s): idp takes totp, HmacSHA1, 6 digits, 30 s`,
    };
  const encoding = data.secretEncoding;
  // As Keycloak reads it: no encoding means the secret's UTF-8 bytes.
  if (encoding === undefined || encoding === null) return { secret: base32(Buffer.from(value, 'utf8')) };
  const given = value.toUpperCase().replace(/[\s=]/g, '');
  const named = JSON.stringify(encoding);
  if (named.toUpperCase() === '"BASE32"' && /^[A-Z2-7]+$/.test(given)) return { secret: given };
  return { problem: `an otp secret in encoding ${named} idp cannot read` };
}
