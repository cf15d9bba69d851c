import type { Config } from '../config/types.js';
import type { Tx } from '../storage/repositories.js';
import { ApplyConflictError } from './apply-conflict-error.js';
import { checkUserCollisions } from './check-user-collisions.js';
import { FINGERPRINT_KEY_SETTING, generateFingerprintKey } from './fingerprint-secret.js';
import type { GitopsStore } from './gitops-store.js';
import { planClients } from './plan-clients.js';
import { planIdentityProviders } from './plan-identity-providers.js';
import { planTerms } from './plan-terms.js';
import { planUsers } from './plan-users.js';
import { summarize, type Plan } from './plan.js';

/**
 * Compares the config's users, clients, terms and identity providers with
 * the database and returns what apply would change. Reads each table once
 * and compares in memory. Throws ApplyConflictError, listing every
 * collision, when the config clashes with database-managed objects.
 *
 * Steps: collisions → identity providers → clients → users → terms.
 */
export async function planChanges(tx: Tx, config: Config, store: GitopsStore): Promise<Plan> {
  const collisions = await checkUserCollisions(tx, config.users, store);
  // Before the first apply stores a key, any key will do: every provider is new and shown as (sensitive).
  const fingerprintKey = (await store.settings.get(tx, FINGERPRINT_KEY_SETTING)) ?? generateFingerprintKey();
  const providers = await planIdentityProviders(tx, config.identityProviders, fingerprintKey, store);
  const clients = await planClients(tx, config.clients, store);
  const problems = [...clients.problems, ...collisions];
  if (problems.length > 0) throw new ApplyConflictError(problems);
  const users = await planUsers(tx, config.users, store);
  const terms = await planTerms(tx, config.terms, store);
  const changes = [...providers.changes, ...clients.changes, ...users.changes, ...terms.changes];
  return {
    changes,
    summary: summarize(changes),
    writes: { identityProviders: providers.writes, clients: clients.writes, users: users.writes, terms: terms.writes },
  };
}
