import type { ClientAccess, UserRole } from '../model/index.js';

export interface AccessDecision {
  allowed: boolean;
  /** Why, one sentence per rule that decided (GET /api/admin/clients/{client_id}/access, `idp admin access check`). */
  reasons: string[];
}

/**
 * Whether a user may use a client (`clients[].access`, docs/configuration.md):
 * every live user when the client has no access rule; otherwise a member of
 * any of its groups (when it names groups) holding one of its roles (when it
 * names roles). The second factor a client may ask for is not decided here:
 * it is asked at sign-in, not refused.
 */
export function decideAccess(
  access: ClientAccess | null,
  user: { role: UserRole; deletedAt: number | null },
  groups: ReadonlySet<string>,
): AccessDecision {
  if (user.deletedAt !== null) return { allowed: false, reasons: ['the account is deleted'] };
  if (access === null) return { allowed: true, reasons: ['the client has no access rule: every active user'] };
  const reasons: string[] = [];
  let allowed = true;
  if (access.groups !== null) {
    const matching = access.groups.filter((g) => groups.has(g)).sort();
    if (matching.length > 0) reasons.push(`member of ${matching.map((g) => `group ${g}`).join(', ')}`);
    else {
      allowed = false;
      reasons.push(`not a member of any of the groups ${access.groups.join(', ')}`);
    }
  }
  if (access.roles !== null) {
    if (access.roles.includes(user.role)) reasons.push(`role ${user.role} is allowed`);
    else {
      allowed = false;
      reasons.push(`role ${user.role} is not one of ${access.roles.join(', ')}`);
    }
  }
  if (access.groups === null && access.roles === null) reasons.push('the access rule names no groups or roles');
  return { allowed, reasons };
}
