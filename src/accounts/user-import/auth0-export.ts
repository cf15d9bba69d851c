import { bcryptHash, pbkdf2Hash, type Pbkdf2Digest } from '../imported-password-hashes.js';
import {
  ImportFileError,
  isImportableEmail,
  parseJson,
  textOrNull,
  type ImportEntry,
  type ImportRefusal,
} from './imported-user.js';

/**
 * The users of an Auth0 export: the password hashes export Auth0's support
 * hands out (NDJSON: `email`, `email_verified`, `passwordHash` bcrypt, or
 * the address in `identifiers[]`), a users export job's file (NDJSON with
 * `given_name`, `family_name`, `name`, no hashes), or a JSON array in the
 * bulk import format (`custom_password_hash` `{algorithm, hash: {value}}`,
 * algorithm bcrypt, argon2 or pbkdf2). Lines, or array items, are users.
 */
export function readAuth0Export(text: string, file: string): ImportEntry[] {
  if (text.trimStart().startsWith('[')) {
    const users = parseJson(text, file) as unknown[];
    return users.map((user, index) => auth0User(user, `${file} [${index}]`));
  }
  const entries: ImportEntry[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    if (lines[index].trim() === '') continue;
    entries.push(auth0User(parseJson(lines[index], file, index), `${file}:${index + 1}`));
  }
  if (entries.length === 0) throw new ImportFileError(`${file}: no users (an Auth0 export is one JSON user per line)`);
  return entries;
}

type Json = Record<string, unknown>;

function auth0User(value: unknown, at: string): ImportEntry {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { refusal: { at, email: null, reason: 'not a user object' } };
  const user = value as Json;
  const identifier = Array.isArray(user.identifiers)
    ? (user.identifiers as (Json | null)[]).find((entry) => entry?.type === 'email')
    : undefined;
  const email = textOrNull(user.email) ?? textOrNull(identifier?.value);
  const refuse = (reason: string): { refusal: ImportRefusal } => ({ refusal: { at, email, reason } });
  if (user.blocked === true) return refuse('blocked in Auth0');
  if (email === null) return refuse('no e-mail address');
  if (!isImportableEmail(email)) return refuse(`"${email}" is not an e-mail address`);
  const passwordHash = auth0PasswordHash(user);
  if ('problem' in passwordHash) return refuse(passwordHash.problem);
  const name = textOrNull(user.name);
  return {
    user: {
      at,
      email,
      emailVerified: (user.email_verified ?? identifier?.verified) === true,
      givenName: textOrNull(user.given_name),
      familyName: textOrNull(user.family_name),
      // Auth0 fills `name` with the address when the user gave none.
      name: name === email ? null : name,
      passwordHash: passwordHash.hash,
      totpSecret: null,
    },
  };
}

const argon2Phc =
  /^\$argon2(id|i|d)\$(v=(16|19)\$)?m=[0-9]{1,7},t=[0-9]{1,3},p=[0-9]{1,2}\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;
const pbkdf2Phc =
  /^\$pbkdf2-(sha1|sha256|sha512)\$i=([0-9]{1,8})(?:,l=[0-9]{1,3})?\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

function auth0PasswordHash(user: Json): { hash: string | null } | { problem: string } {
  if (typeof user.passwordHash === 'string') {
    const hash = bcryptHash(user.passwordHash);
    return hash === null ? { problem: 'passwordHash is not a bcrypt hash' } : { hash };
  }
  const custom = user.custom_password_hash as Json | null | undefined;
  if (custom === undefined || custom === null) return { hash: null };
  const algorithm = String(custom.algorithm);
  const value = (custom.hash as Json | undefined)?.value;
  const text = typeof value === 'string' ? value : '';
  if (algorithm === 'bcrypt') {
    const hash = bcryptHash(text);
    return hash === null ? { problem: 'custom_password_hash is not a bcrypt hash' } : { hash };
  }
  if (algorithm === 'argon2')
    return argon2Phc.test(text) ? { hash: text } : { problem: 'custom_password_hash is not an argon2 PHC string' };
  if (algorithm === 'pbkdf2') {
    const match = pbkdf2Phc.exec(text);
    if (!match) return { problem: 'custom_password_hash is not a pbkdf2 PHC string' };
    const [, digest, iterations, salt, key] = match;
    return pbkdf2Hash(
      digest as Pbkdf2Digest,
      Number(iterations),
      Buffer.from(salt, 'base64'),
      Buffer.from(key, 'base64'),
    );
  }
  return { problem: `unknown password hash algorithm "${algorithm}"` };
}
