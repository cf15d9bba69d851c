import type { AccountsWiring } from '../accounts/wire-accounts.js';
import type { AreaBase } from '../area-wiring.js';
import type { EventLog } from '../events/index.js';
import type { InteractionWiring } from '../interaction/wire-interaction.js';
import { deriveKey } from '../security/resolve-server-secret.js';
import type { Tx } from '../storage/repositories.js';
import { createAccountRules } from './account-rules.js';
import { createConnectionService, type ConnectionService } from './connection-service.js';
import { createFederationService, type FederationService } from './federation-service.js';
import { defaultUpstreamTimeoutMs } from './fetch-upstream.js';
import { createOpenIdMetadataCache } from './openid-metadata.js';
import { createPendingLinks } from './pending-link.js';
import { createUpstreamMemberships } from './upstream-memberships.js';
import { createUpstreamDirectory } from './upstream-provider.js';
import { createUpstreamStates } from './upstream-states.js';
import { createKeySets } from './verify-id-token.js';

/**
 * The federation area: sign-in through upstream identity providers and the
 * user's connections to them (HttpDeps federation). A user an upstream
 * provider brings is created by the accounts area's registration, and
 * signed in through the same steps as any other (the interaction area).
 */
export function wireFederation(
  base: AreaBase,
  needs: {
    accounts: AccountsWiring;
    interaction: InteractionWiring;
    events: EventLog;
    /** Each upstream call's limit (tests shorten it). */
    timeoutMs?: number;
  },
): { services: { upstream: FederationService; connections: ConnectionService } } {
  const { config, storage, clock, logger } = base;
  const { db, repositories } = storage;
  const transaction = <T>(work: (tx: Tx) => Promise<T>) => storage.transaction(work);
  const keys = {
    // Derived from the server secret: seals pending links and derives PKCE verifiers and nonces.
    cookiePassword: deriveKey(base.secret, 'upstream pending link'),
    stateKey: deriveKey(base.secret, 'upstream state'),
  };
  const timeoutMs = needs.timeoutMs ?? defaultUpstreamTimeoutMs;
  const directory = createUpstreamDirectory({
    db,
    providers: repositories.identityProviders,
    configured: config.identityProviders,
  });
  const accounts = createAccountRules({
    transaction,
    db,
    users: repositories.users,
    connections: repositories.connections,
    createUser: (tx, input) => needs.accounts.services.registration.registerFromUpstream(tx, input),
    events: needs.events,
    clock,
  });
  const federation = createFederationService({
    directory,
    states: createUpstreamStates({ db, states: repositories.upstreamStates, clock, key: keys.stateKey }),
    pendingLinks: createPendingLinks({ cookiePassword: keys.cookiePassword, clock }),
    accounts,
    memberships: createUpstreamMemberships({
      db,
      transaction,
      groups: repositories.groups,
      events: needs.events,
      clock,
    }),
    signIn: needs.interaction.services.signIn,
    client: {
      clock,
      timeoutMs,
      metadata: createOpenIdMetadataCache({ clock, timeoutMs }),
      keySets: createKeySets(timeoutMs),
    },
    baseUrl: config.server.baseUrl,
    logger: logger,
  });
  const connections = createConnectionService({
    db,
    transaction,
    connections: repositories.connections,
    providers: repositories.identityProviders,
    directory,
    factors: needs.accounts.factors,
    events: needs.events,
  });
  return { services: { upstream: federation, connections } };
}
