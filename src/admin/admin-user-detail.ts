import type { UserGroup } from '../access/user-groups.js';
import type { ConnectionView } from '../federation/connection-service.js';
import type { EventRecord, UserRecord } from '../model/index.js';
import type { AdminEventsService } from './admin-events-service.js';
import type { AdminGroupsService, GroupSummaryView } from './admin-groups-service.js';
import type { AdminUsersService } from './admin-users-service.js';
import type { AdminUserView } from './user-view-service.js';

/** Events of a user's page: the newest ones they did or that concern them. */
const recentEventCount = 10;

/** Everything the console's page of one user shows (docs/ui.md, "Admin console"). */
export interface AdminUserDetail {
  user: AdminUserView;
  /** When a deleted database user can no longer be restored; null for others. */
  restorableUntil: number | null;
  /** Every (group, source) of the user, ordered by group id then source. */
  groups: UserGroup[];
  /** Every group of the config, for the form that adds the user to one. */
  allGroups: GroupSummaryView[];
  connections: ConnectionView[];
  /** The newest events with the user as actor or subject, newest first. */
  events: EventRecord[];
}

export interface AdminUserDetails {
  /** 403 FORBIDDEN for a non-admin, 404 USER_NOT_FOUND for an unknown sub. */
  describe(caller: UserRecord, sub: string): Promise<AdminUserDetail>;
}

/**
 * A user as the console shows them, read through the admin services (each
 * checks the caller) and the user's connections (src/federation), which
 * only a checked admin reaches here.
 */
export function createAdminUserDetails(deps: {
  users: AdminUsersService;
  groups: AdminGroupsService;
  events: AdminEventsService;
  connections: { list(sub: string): Promise<ConnectionView[]> };
}): AdminUserDetails {
  return {
    async describe(caller, sub) {
      const user = await deps.users.get(caller, sub);
      const page = { page: 1, pageSize: recentEventCount };
      const [groups, allGroups, connections, asSubject, asActor] = await Promise.all([
        deps.groups.groupsOf(caller, sub),
        deps.groups.list(caller),
        deps.connections.list(sub),
        deps.events.list({ subject: sub, ...page }),
        deps.events.list({ actor: sub, ...page }),
      ]);
      const byId = new Map([...asSubject.events, ...asActor.events].map((event) => [event.id, event]));
      const events = [...byId.values()].sort((a, b) => b.time - a.time || b.id - a.id).slice(0, recentEventCount);
      return { user, restorableUntil: deps.users.restorableUntil(user), groups, allGroups, connections, events };
    },
  };
}
