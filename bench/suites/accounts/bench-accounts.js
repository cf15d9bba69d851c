// @ts-check
/** The accounts the bench server seeds, shared by the server child and the suite. */
export const seededUsers = 1000;
export const seededEmail = (/** @type {number} */ i) => `member-${String(i).padStart(4, '0')}@example.com`;
