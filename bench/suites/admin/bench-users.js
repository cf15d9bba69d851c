// @ts-check
/** The seeded population of the admin suite, shared by the server child and the suite. */

export const benchUserCount = 100_000;
export const benchPassword = 'bench-password-1234';
export const adminEmail = 'bench-admin@example.org';

/** @param {number} i */
export const benchUserSub = (i) => `user-${String(i).padStart(6, '0')}`;

/** @param {number} i */
export const benchUserEmail = (i) => `${benchUserSub(i)}@example.com`;
