import type { AdminClient } from './admin-client.js';
import type { AdminUser } from './admin-api-types.js';

/**
 * The subs of a page of users that the login rate limit blocks now, for the
 * LOCKED column: one more request per page, none for an empty page. The
 * admin user's fields are fixed by the API, so the lock state has its own endpoint.
 */
export async function lockedSubs(client: AdminClient, users: AdminUser[]): Promise<Set<string>> {
  if (users.length === 0) return new Set();
  const answer = await client.lockedUsers(users.map((user) => user.sub));
  return new Set(answer.users.map((user) => user.sub));
}
