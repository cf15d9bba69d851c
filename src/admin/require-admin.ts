import { forbidden } from '../api-error.js';
import type { UserRecord } from '../model/index.js';

/**
 * 403 FORBIDDEN unless the caller is a live admin. The route's auth mode
 * already refuses others; services check again so that no other caller
 * (a future route, a test) can skip the rule.
 */
export function requireAdmin(caller: UserRecord): void {
  if (caller.role !== 'admin' || caller.deletedAt !== null) throw forbidden();
}
