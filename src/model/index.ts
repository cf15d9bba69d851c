/**
 * The domain records: plain data that services, storage and the CLI share.
 * The lowest layer; it imports nothing. Times are epoch milliseconds.
 * Repositories (src/storage/repositories.ts) read and write these records;
 * wire shapes (snake_case) live at the edges, not here.
 */
export type * from './users.js';
export type * from './sessions.js';
export type * from './authorization.js';
export type * from './clients.js';
export type * from './terms.js';
export type * from './identity-providers.js';
export type * from './connections.js';
export type * from './jobs.js';
export type * from './keys.js';
export type * from './tokens.js';
export type * from './second-factors.js';
export type * from './link-tokens.js';
export type * from './events.js';
export type * from './groups.js';
export type * from './device-codes.js';
