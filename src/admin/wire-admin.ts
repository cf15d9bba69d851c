import { hashPassword } from '../accounts/index.js';
import { createUserGroupReader } from '../access/user-groups.js';
import type { AccountsWiring } from '../accounts/wire-accounts.js';
import type { AreaBase } from '../area-wiring.js';
import type { EventLog } from '../events/index.js';
import type { Tx } from '../storage/repositories.js';
import { createAdminAccessCheck } from './admin-access-check.js';
import { createAdminEventsService } from './admin-events-service.js';
import { createAdminGroupsService } from './admin-groups-service.js';
import { createAdminUsersService } from './admin-users-service.js';
import { createAdminUserDetails } from './admin-user-detail.js';
import { createFirstAdminSetup } from './first-admin-setup.js';
import { createAdminOverview } from './admin-overview.js';
import type { ConnectionView } from '../federation/connection-service.js';
import { createAccountUnlock } from './unlock-account.js';
import { createUserViewService } from './user-view-service.js';

/** The admin area: the admin API's users, unlocking and lock states, audit events, group memberships and access checks (HttpDeps admin), over the accounts area. */
export function wireAdmin(
  base: AreaBase,
  needs: {
    accounts: AccountsWiring;
    events: EventLog;
    /** A user's upstream connections (src/federation), for the console's user page. */
    connections: { list(sub: string): Promise<ConnectionView[]> };
    /** The last drift check of the file against the database (src/operations), for the Overview. */
    configDrift: () => Promise<{ drift: boolean | null; changes: number | null; checkedAt: number | null }>;
  },
) {
  const { config, storage, clock } = base;
  const { db, repositories } = storage;
  const { accounts } = needs;
  const userViews = createUserViewService({ factors: accounts.factors, auth: config.auth });
  const users = createAdminUsersService({
    db,
    transaction: <T>(work: (tx: Tx) => Promise<T>) => storage.transaction(work),
    users: repositories.users,
    views: userViews,
    revokeUser: accounts.revokeUser,
    resetSecondFactors: accounts.resetSecondFactors,
    hashPassword,
    events: needs.events,
    clock,
    restoreGraceMs: config.accountDeletion.gracePeriodDays * 86_400_000,
  });
  const userGroups = createUserGroupReader({ db, groups: repositories.groups });
  const events = createAdminEventsService(storage);
  const groups = createAdminGroupsService({
    db,
    transaction: <T>(work: (tx: Tx) => Promise<T>) => storage.transaction(work),
    groups: repositories.groups,
    users: repositories.users,
    views: userViews,
    userGroups,
    events: needs.events,
    clock,
  });
  const services = {
    users,
    overview: createAdminOverview({
      db,
      events: repositories.events,
      sessions: repositories.sessions,
      clock,
      async drift() {
        const { drift, changes, checkedAt } = await needs.configDrift();
        return drift === null || checkedAt === null ? null : { inSync: !drift, changes: changes ?? 0, checkedAt };
      },
    }),
    userDetails: createAdminUserDetails({ users, groups, events, connections: needs.connections }),
    firstAdmin: createFirstAdminSetup({
      db,
      transaction: <T>(work: (tx: Tx) => Promise<T>) => storage.transaction(work),
      tokens: repositories.firstAdminTokens,
      users: repositories.users,
      sessions: accounts.services.sessions,
      hashPassword,
      auth: config.auth,
      configUsers: config.users,
      events: needs.events,
      clock,
    }),
    unlock: createAccountUnlock({ db, users: repositories.users, rateLimit: accounts.rateLimit }),
    userViews,
    userGroups,
    events,
    groups,
    access: createAdminAccessCheck({
      db,
      clients: repositories.clients,
      users: repositories.users,
      groups: repositories.groups,
    }),
  };
  return { services };
}
