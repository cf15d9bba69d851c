import type { ClientConfig, ForwardAuthAppConfig, UserConfig } from '../config/types.js';
import type { ClientAccess, ClientRecord, GroupMembership, UserRecord, UserRole } from '../model/index.js';
import type { MembershipKey, Tx } from '../storage/repositories.js';
import { cohortsOf, createAccessDecider, ruleKey, type Cohort } from './access-cohorts.js';
import type { GitopsStore } from './gitops-store.js';
import type { AccessChange, PlanWrites } from './plan.js';

/** What the plan already knows when it computes the access section: the database before, the file after. */
export interface AccessInputs {
  clients: { stored: ClientRecord[]; desired: ClientConfig[] };
  /** The stored users are the config-managed ones. */
  users: { stored: UserRecord[]; desired: UserConfig[] };
  configMemberships: GroupMembership[];
  memberships: PlanWrites['memberships'];
  removedGroups: string[];
  /** forward_auth.apps of the file: their rule is the running one on both sides (it is no database object). */
  forwardAuthApps: ForwardAuthAppConfig[];
  now: number;
}

export type AccessPlan = { access: AccessChange[] } & Pick<PlanWrites, 'revocations' | 'removedWithGroups'>;

/** A user live before and after the apply, with the role of each side. */
interface Person {
  sub: string;
  email: string;
  roleBefore: UserRole;
  roleAfter: UserRole;
}

interface KeptClient {
  /** A client id, or a forward-auth app's host (and path prefix). */
  clientId: string;
  before: ClientAccess | null;
  after: ClientAccess | null;
  /** A forward-auth app: it has no grants to count or revoke. */
  app: boolean;
}

const membershipKey = (m: MembershipKey) => `${m.groupId}\n${m.sub}\n${m.source}\n${m.provider ?? ''}`;

function addTo(sets: Map<string, Set<string>>, sub: string, groupId: string): void {
  const set = sets.get(sub) ?? new Set<string>();
  set.add(groupId);
  sets.set(sub, set);
}

/**
 * The plan's access section (docs/gitops.md, "The access section"): for
 * each client that exists before and after the apply, the live users (both
 * sides) whom decideAccess lets in on one side only. New, restored and
 * removed users and new and removed clients are not in it: their `+` / `-`
 * lines say it, and apply revokes a removed one's grants whole. The
 * forward_auth apps with an access rule are in it too, named by host (and
 * path prefix), for the users whose role or groups change: they have no
 * grants (`activeGrants` null), and their own rule is a setting of the
 * running server, not a database object, so it is the same on both sides.
 *
 * Cost: a client whose rule stays is compared for the users whose role or
 * groups change only; everyone (database users and their memberships
 * included, read once) is compared only when a rule changes or a group is
 * removed. Each distinct pair of rules (before, after) is compared once,
 * per cohort of users of the same standing (access-cohorts.ts), not per
 * user. Active grants are counted for the losers only, in one grouped query.
 */
export async function planAccess(tx: Tx, input: AccessInputs, store: GitopsStore): Promise<AccessPlan> {
  const kept = [...keptClients(input.clients), ...forwardAuthApps(input.forwardAuthApps)];
  const people = livePeople(input.users);
  const changed = new Set<string>();
  for (const person of people.values()) if (person.roleBefore !== person.roleAfter) changed.add(person.sub);
  for (const m of [...input.memberships.add, ...input.memberships.remove]) if (people.has(m.sub)) changed.add(m.sub);

  const removedGroups = new Set(input.removedGroups);
  const everyone = removedGroups.size > 0 || kept.some((c) => ruleKey(c.before) !== ruleKey(c.after));
  if (!everyone && (kept.length === 0 || changed.size === 0))
    return { access: [], revocations: [], removedWithGroups: [] };

  let rows: GroupMembership[];
  if (everyone) {
    for (const user of await store.users.listByManager(tx, 'database'))
      if (user.deletedAt === null)
        people.set(user.sub, { sub: user.sub, email: user.email, roleBefore: user.role, roleAfter: user.role });
    rows = [...input.configMemberships, ...(await store.groups.listMemberships(tx, ['database', 'upstream']))];
  } else rows = await store.groups.membershipsOf(tx, [...changed]);

  const removedKeys = new Set(input.memberships.remove.map(membershipKey));
  const groupsBefore = new Map<string, Set<string>>();
  const groupsAfter = new Map<string, Set<string>>();
  for (const m of rows) {
    addTo(groupsBefore, m.sub, m.groupId);
    if (removedGroups.has(m.groupId)) {
      if (people.has(m.sub)) changed.add(m.sub);
    } else if (!removedKeys.has(membershipKey(m))) addTo(groupsAfter, m.sub, m.groupId);
  }
  for (const m of input.memberships.add) addTo(groupsAfter, m.sub, m.groupId);

  const changedCohorts = cohortsOf(
    [...changed].map((sub) => people.get(sub) as Person),
    groupsBefore,
    groupsAfter,
  );
  let everyCohort: Cohort<Person>[] | undefined;
  const allowed = createAccessDecider();
  const outcomes = new Map<string, { person: Person; change: 'gain' | 'lose' }[]>();
  const access: AccessChange[] = [];
  const losses: AccessChange[] = [];
  for (const client of kept) {
    const key = `${ruleKey(client.before)}\n${ruleKey(client.after)}`;
    let found = outcomes.get(key);
    if (!found) {
      const cohorts =
        ruleKey(client.before) !== ruleKey(client.after)
          ? (everyCohort ??= cohortsOf(people.values(), groupsBefore, groupsAfter))
          : changedCohorts;
      found = [];
      for (const cohort of cohorts) {
        const before = allowed(client.before, cohort.before);
        if (before === allowed(client.after, cohort.after)) continue;
        for (const person of cohort.people) found.push({ person, change: before ? 'lose' : 'gain' });
      }
      outcomes.set(key, found);
    }
    for (const { person, change } of found) {
      const entry: AccessChange = {
        clientId: client.clientId,
        sub: person.sub,
        email: person.email,
        change,
        activeGrants: null,
      };
      access.push(entry);
      if (change === 'lose' && !client.app) losses.push(entry);
    }
  }

  const counts = new Map(
    (await store.tokens.countActiveGrants(tx, losses, input.now)).map((c) => [`${c.clientId}\n${c.sub}`, c.count]),
  );
  for (const loss of losses) loss.activeGrants = counts.get(`${loss.clientId}\n${loss.sub}`) ?? 0;
  access.sort(byClientChangeSub);

  const revocations = new Map<string, string[]>();
  for (const loss of losses) {
    const subs = revocations.get(loss.clientId) ?? [];
    subs.push(loss.sub);
    revocations.set(loss.clientId, subs);
  }
  return {
    access,
    revocations: [...revocations].map(([clientId, subs]) => ({ clientId, subs })),
    removedWithGroups: rows.filter((m) => removedGroups.has(m.groupId) && m.source !== 'config'),
  };
}

/** Clients that exist before and after the apply, with their rule on each side; those open to everyone on both are left out. */
function keptClients(clients: AccessInputs['clients']): KeptClient[] {
  const desired = new Map(clients.desired.map((c) => [c.clientId, c]));
  return clients.stored.flatMap((client) => {
    const next = desired.get(client.clientId);
    // A config client out of the file is removed; a database-managed one keeps its rule (a config client cannot take its id).
    if (client.managedBy === 'config' && !next) return [];
    const after = next ? next.access : client.access;
    return client.access === null && after === null
      ? []
      : [{ clientId: client.clientId, before: client.access, after, app: false }];
  });
}

/** The forward-auth apps with a rule (the others let every signed-in user in, before and after). */
function forwardAuthApps(apps: ForwardAuthAppConfig[]): KeptClient[] {
  return apps.flatMap((app) =>
    app.access === null
      ? []
      : [
          {
            clientId: app.pathPrefix === '/' ? app.host : `${app.host}${app.pathPrefix}`,
            before: app.access,
            after: app.access,
            app: true,
          },
        ],
  );
}

/** Config users live before and after (database users join only when everyone is compared). */
function livePeople(users: AccessInputs['users']): Map<string, Person> {
  const desired = new Map(users.desired.map((u) => [u.sub, u]));
  const people = new Map<string, Person>();
  for (const user of users.stored) {
    const next = desired.get(user.sub);
    if (!next || user.deletedAt !== null) continue;
    people.set(user.sub, { sub: user.sub, email: next.email, roleBefore: user.role, roleAfter: next.role });
  }
  return people;
}

const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** By client; in each, losses first (the changes that hurt), then by sub. */
function byClientChangeSub(a: AccessChange, b: AccessChange): number {
  return (
    order(a.clientId, b.clientId) ||
    order(a.change === 'lose' ? '0' : '1', b.change === 'lose' ? '0' : '1') ||
    order(a.sub, b.sub)
  );
}
