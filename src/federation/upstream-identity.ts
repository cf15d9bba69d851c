import { UpstreamError } from './federation-error.js';

/** Who signed in at the upstream, as far as idp needs it. */
export interface UpstreamIdentity {
  /** The upstream's stable id of the account. */
  subject: string;
  /** Trimmed; null when the upstream gives none. */
  email: string | null;
  /** The upstream asserts that the address belongs to the account holder. */
  emailVerified: boolean;
}

const maxSubjectLength = 255;
const maxEmailLength = 320;

/** A subject as the connections table stores it: a non-empty string (GitHub's numeric id as text). */
export function readSubject(what: string, value: unknown): string {
  const subject = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof subject !== 'string' || subject === '' || subject.length > maxSubjectLength) {
    throw new UpstreamError(`${what}: no usable account id (sub or id)`);
  }
  return subject;
}

/** An address that looks like one, or null: a malformed address is treated as none. */
export function readEmail(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const email = value.trim();
  return email.length <= maxEmailLength && /^[^\s@]+@[^\s@]+$/.test(email) ? email : null;
}

/** email_verified as OpenID upstreams send it: a boolean, or (Apple) the string "true". */
export function readVerified(value: unknown): boolean {
  return value === true || value === 'true';
}

/**
 * An e-mail list endpoint (GitHub's GET /user/emails, and generic_oauth's
 * email_url in the same shape: `[{ email, primary, verified }]`): the
 * primary address with its verified flag, else the first verified one.
 */
export function readEmailList(what: string, body: unknown): { email: string | null; emailVerified: boolean } {
  if (!Array.isArray(body)) throw new UpstreamError(`${what}: the answer is not a list of addresses`);
  const entries = body
    .filter((entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null)
    .map((entry) => ({
      email: readEmail(entry.email),
      primary: entry.primary === true,
      verified: readVerified(entry.verified),
    }))
    .filter((entry) => entry.email !== null);
  const chosen = entries.find((entry) => entry.primary) ?? entries.find((entry) => entry.verified);
  return chosen ? { email: chosen.email, emailVerified: chosen.verified } : { email: null, emailVerified: false };
}

/**
 * What an upstream asserted at a sign-in beyond who signed in: what the
 * `upstream` rules of groups read (./upstream-groups.ts).
 */
export interface UpstreamAssertion {
  /** OpenID upstreams: the ID token's claims over userinfo's (when it was read); others: the userinfo object. */
  claims: Readonly<Record<string, unknown>>;
  /** GitHub teams as `org/slug` in lower case; empty unless a team rule asked for them. */
  teams: readonly string[];
}

/** An upstream identity with what the upstream asserted about it. */
export interface AssertedIdentity extends UpstreamIdentity {
  assertion: UpstreamAssertion;
}
