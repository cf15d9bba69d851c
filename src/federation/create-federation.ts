import type { Logger } from 'pino';
import type { UserFactorReader } from '../accounts/index.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/types.js';
import type { EventLog } from '../events/index.js';
import type { SignInService } from '../interaction/index.js';
import type { Storage } from '../storage/repositories.js';
import { createAccountRules, type CreateUpstreamUser } from './account-rules.js';
import { createConnectionService, type ConnectionService } from './connection-service.js';
import { createFederationService, type FederationService } from './federation-service.js';
import { defaultUpstreamTimeoutMs } from './fetch-upstream.js';
import { createOpenIdMetadataCache } from './openid-metadata.js';
import { createPendingLinks } from './pending-link.js';
import { createUpstreamDirectory } from './upstream-provider.js';
import { createUpstreamStates } from './upstream-states.js';
import { createKeySets } from './verify-id-token.js';

/** The federation services over one storage (src/app.ts builds them once). */
export function createFederation(deps: {
  config: Pick<Config, 'identityProviders' | 'server'>;
  storage: Pick<Storage, 'db' | 'transaction' | 'repositories'>;
  signIn: SignInService;
  createUser: CreateUpstreamUser;
  factors: UserFactorReader;
  events: EventLog;
  /** Derived from the server secret: seals pending links and derives PKCE verifiers and nonces. */
  keys: { cookiePassword: string; stateKey: string };
  clock: Clock;
  logger: Logger;
  /** Each upstream call's limit (tests shorten it). */
  timeoutMs?: number;
}): { federation: FederationService; connections: ConnectionService } {
  const { storage, clock } = deps;
  const { db, repositories } = storage;
  const transaction = <T>(work: Parameters<Storage['transaction']>[0]) => storage.transaction(work) as Promise<T>;
  const timeoutMs = deps.timeoutMs ?? defaultUpstreamTimeoutMs;
  const directory = createUpstreamDirectory({
    db,
    providers: repositories.identityProviders,
    configured: deps.config.identityProviders,
  });
  const accounts = createAccountRules({
    transaction,
    db,
    users: repositories.users,
    connections: repositories.connections,
    createUser: deps.createUser,
    events: deps.events,
    clock,
  });
  const federation = createFederationService({
    directory,
    states: createUpstreamStates({ db, states: repositories.upstreamStates, clock, key: deps.keys.stateKey }),
    pendingLinks: createPendingLinks({ cookiePassword: deps.keys.cookiePassword, clock }),
    accounts,
    signIn: deps.signIn,
    client: {
      clock,
      timeoutMs,
      metadata: createOpenIdMetadataCache({ clock, timeoutMs }),
      keySets: createKeySets(timeoutMs),
    },
    baseUrl: deps.config.server.baseUrl,
    logger: deps.logger,
  });
  const connections = createConnectionService({
    db,
    transaction,
    connections: repositories.connections,
    providers: repositories.identityProviders,
    directory,
    factors: deps.factors,
    events: deps.events,
  });
  return { federation, connections };
}
