import { clientNotFound, userNotFound } from '../api-error.js';
import { decideAccess, type AccessDecision } from '../access/decide-access.js';
import type { UserRecord } from '../model/index.js';
import type { ClientRepository, GroupRepository, Tx, UserRepository } from '../storage/repositories.js';
import { requireAdmin } from './require-admin.js';

/**
 * GET /api/admin/clients/{client_id}/access (docs/http-api.md, "Groups and
 * access"): whether a user may use a client, and why, by the same rule as
 * sign-in (decideAccess over the user's groups from every source). Order of
 * checks: admin (403 FORBIDDEN) → client (404 CLIENT_NOT_FOUND) → user (404
 * USER_NOT_FOUND).
 */
export interface AdminAccessCheck {
  check(caller: UserRecord, clientId: string, sub: string): Promise<AccessDecision>;
}

export function createAdminAccessCheck(deps: {
  db: Tx;
  clients: ClientRepository;
  users: UserRepository;
  groups: GroupRepository;
}): AdminAccessCheck {
  return {
    async check(caller, clientId, sub) {
      requireAdmin(caller);
      const client = await deps.clients.findById(deps.db, clientId);
      if (!client) throw clientNotFound();
      const user = await deps.users.findBySub(deps.db, sub);
      if (!user) throw userNotFound();
      const groups = new Set((await deps.groups.membershipsOf(deps.db, [sub])).map((m) => m.groupId));
      const decision = decideAccess(client.access, user, groups);
      // Not a refusal: sign-in asks for the factor (or its enrolment) before consent.
      if (decision.allowed && client.access?.secondFactor === 'required')
        return { ...decision, reasons: [...decision.reasons, 'the client asks for a second factor at sign-in'] };
      return decision;
    },
  };
}
