import { CliError } from '../output.js';
import { AdminApiError } from './admin-api-error.js';
import type { AdminClient } from './admin-client.js';
import type { AdminUser } from './admin-api-types.js';

/**
 * The user a command names by sub or by e-mail (`idp admin users get
 * ada@example.com`). The sub is tried first, since a config user's sub may
 * itself look like an e-mail; when no user has that sub and the text holds
 * an @, the e-mail is looked up (case-insensitive, like the server): the
 * live user with it, else the one soft-deleted user with it. Nobody found
 * is the API's own USER_NOT_FOUND.
 */
export async function findUser(client: AdminClient, subOrEmail: string): Promise<AdminUser> {
  try {
    return (await client.getUser(subOrEmail)).user;
  } catch (error) {
    if (!(error instanceof AdminApiError) || error.code !== 'USER_NOT_FOUND' || !subOrEmail.includes('@')) throw error;
    const byEmail = await usersWithEmail(client, subOrEmail);
    const live = byEmail.filter((u) => u.deleted_at === null);
    const candidates = live.length > 0 ? live : byEmail;
    if (candidates.length === 1) return candidates[0];
    if (candidates.length === 0) throw error;
    throw new CliError(
      `${candidates.length} deleted users had the e-mail ${subOrEmail} (${candidates.map((u) => u.sub).join(', ')}): give the sub`,
    );
  }
}

/** Every user, live or deleted, whose e-mail is exactly `email` (the list's query is a substring match). */
async function usersWithEmail(client: AdminClient, email: string): Promise<AdminUser[]> {
  const wanted = email.toLowerCase();
  const found: AdminUser[] = [];
  for (let page = 1; ; page++) {
    const answer = await client.listUsers({ query: email, include_deleted: true, page, page_size: 100 });
    found.push(...answer.users.filter((u) => u.email.toLowerCase() === wanted));
    if (page * answer.pagination.page_size >= answer.pagination.total) return found;
  }
}
