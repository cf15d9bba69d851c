import type { Config } from '../config/types.js';
import type { Tx } from '../storage/repositories.js';
import { ApplyConflictError } from './apply-conflict-error.js';
import { checkUserCollisions } from './check-user-collisions.js';
import { FINGERPRINT_KEY_SETTING, generateFingerprintKey } from './fingerprint-secret.js';
import type { GitopsStore } from './gitops-store.js';
import { planAccess } from './plan-access.js';
import { planClients } from './plan-clients.js';
import { planGroups } from './plan-groups.js';
import { planIdentityProviders } from './plan-identity-providers.js';
import { planTerms } from './plan-terms.js';
import { planUsers } from './plan-users.js';
import { summarize, type Plan } from './plan.js';

/**
 * Compares the config's users, clients, groups (with their config
 * memberships), terms and identity providers with the database and returns
 * what apply would change, then who gains or loses which client by it (the
 * access section, active grants counted at `now`). Reads each table once
 * and compares in memory. Throws ApplyConflictError, listing every
 * collision, when the config clashes with database-managed objects.
 *
 * Steps: collisions → identity providers → clients → users → groups →
 * terms → access.
 */
export async function planChanges(tx: Tx, config: Config, store: GitopsStore, now: number): Promise<Plan> {
  const collisions = await checkUserCollisions(tx, config.users, store);
  // Before the first apply stores a key, any key will do: every provider is new and shown as (sensitive).
  const fingerprintKey = (await store.settings.get(tx, FINGERPRINT_KEY_SETTING)) ?? generateFingerprintKey();
  const providers = await planIdentityProviders(tx, config.identityProviders, fingerprintKey, store);
  const storedClients = await store.clients.listAll(tx);
  const clients = planClients(config.clients, storedClients);
  const problems = [...clients.problems, ...collisions];
  if (problems.length > 0) throw new ApplyConflictError(problems);
  const storedUsers = await store.users.listByManager(tx, 'config');
  const users = planUsers(config.users, storedUsers);
  const configMemberships = await store.groups.listMemberships(tx, ['config']);
  const groups = planGroups(config.groups, await store.groups.listAll(tx), configMemberships);
  const terms = await planTerms(tx, config.terms, store);
  const access = await planAccess(
    tx,
    {
      clients: { stored: storedClients, desired: config.clients },
      users: { stored: storedUsers, desired: config.users },
      configMemberships,
      memberships: groups.writes.memberships,
      removedGroups: groups.writes.groups.remove,
      forwardAuthApps: config.forwardAuth.apps,
      now,
    },
    store,
  );
  const changes = [...providers.changes, ...clients.changes, ...users.changes, ...groups.changes, ...terms.changes];
  return {
    changes,
    summary: summarize(changes),
    access: access.access,
    writes: {
      identityProviders: providers.writes,
      clients: clients.writes,
      users: users.writes,
      ...groups.writes,
      removedWithGroups: access.removedWithGroups,
      revocations: access.revocations,
      terms: terms.writes,
    },
  };
}
