/**
 * What an export file says of one user, read by ./keycloak-export.ts or
 * ./auth0-export.ts, before ./user-import.ts checks it against the file and
 * the database. `at` places it in the file for messages (`users[3]`,
 * `line 12`).
 */
export interface ImportedUser {
  at: string;
  email: string;
  emailVerified: boolean;
  name: string | null;
  givenName: string | null;
  familyName: string | null;
  /** In a form verifyPassword checks (../imported-password-hashes.ts), or null: no password (a reset gives one). */
  passwordHash: string | null;
  /** Base32, as authenticator apps take it; null without one. */
  totpSecret: string | null;
}

/** A user that is not imported, and why. `email` is null when the entry has none. */
export interface ImportRefusal {
  at: string;
  email: string | null;
  reason: string;
}

export type ImportEntry = { user: ImportedUser } | { refusal: ImportRefusal };

/** A file that cannot be read as an export at all: the message starts with its location (`FILE:LINE:COLUMN`). */
export class ImportFileError extends Error {}

/** The JSON of `text`, or an ImportFileError naming the line and column where it broke. */
export function parseJson(text: string, file: string, lineOffset = 0): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const message = (error as Error).message;
    const position = /at position (\d+)/.exec(message);
    const offset = position ? Number(position[1]) : text.length;
    const before = text.slice(0, offset).split('\n');
    const line = lineOffset + before.length;
    const column = before[before.length - 1].length + 1;
    const reason = message.replace(/\s*in JSON at position \d+.*$/, '');
    throw new ImportFileError(`${file}:${line}:${column}: malformed JSON: ${reason}`);
  }
}

/** A trimmed non-empty string, else null. */
export function textOrNull(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** The rules an address meets to be imported: what the API's e-mail fields accept (one @, a dotted domain, at most 320 characters). */
export function isImportableEmail(email: string): boolean {
  return email.length <= 320 && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(email);
}

/** RFC 4648 base32 without padding: how a TOTP secret is given to authenticator apps. */
export function base32(bytes: Buffer): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}
