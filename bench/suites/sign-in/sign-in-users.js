// @ts-check
/** The seeded population of the sign-in suite, shared by the server child and the suite. */

export const benchPassword = 'bench-password-1234';
/** Users with a password alone, and users with an authenticator app: a sign-in rotates through them. */
export const passwordUserCount = 1_000;
/** A TOTP step is accepted once per user: enough users that a run never reuses one inside a step. */
export const totpUserCount = 5_000;
/** One passkey user per connection: a passkey's signature counter must rise, so one credential signs one assertion at a time. */
export const passkeyUserCount = 8;

/** @param {'password' | 'totp' | 'passkey'} kind @param {number} i */
export const benchEmail = (kind, i) => `${kind}-${String(i).padStart(5, '0')}@example.com`;
