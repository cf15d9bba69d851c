import { AdminApiError } from './admin-api-error.js';
import type { AdminUser } from './admin-api-types.js';

/**
 * Runs a change to a user the command has looked up. The admin API answers
 * USER_NOT_EDITABLE with one fixed message whatever the reason; the CLI
 * knows the user, so it says why, and for a user declared in the config
 * file, where the change belongs instead.
 */
export async function changeUser<T>(user: AdminUser, change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof AdminApiError && error.code === 'USER_NOT_EDITABLE') error.explanation = whyNotEditable(user);
    throw error;
  }
}

function whyNotEditable(user: AdminUser): string | null {
  if (user.managed_by === 'config') return 'declared in the config file: change it there and run `idp apply`';
  if (user.deleted_at !== null) return 'soft-deleted: a deleted user is not changed';
  // Left: an admin changing their own role or deleting themselves, which the server's message covers.
  return null;
}
