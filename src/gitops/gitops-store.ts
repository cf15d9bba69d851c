import { createSessionEnd, type SessionEnd } from '../accounts/index.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/types.js';
import type {
  ClientRepository,
  GrantRevoker,
  GroupRepository,
  IdentityProviderRepository,
  SettingsRepository,
  Storage,
  TermRepository,
  TokenRepository,
  Tx,
  UserRepository,
} from '../storage/repositories.js';
import { logoutJobOutbox } from './logout-job-outbox.js';

/** The storage plan and apply work with. */
export interface GitopsStore {
  users: UserRepository;
  clients: ClientRepository;
  groups: GroupRepository;
  /** The plan's access section counts the active grants of users who lose a client. */
  tokens: Pick<TokenRepository, 'countActiveGrants'>;
  terms: TermRepository;
  identityProviders: IdentityProviderRepository;
  settings: SettingsRepository;
  revokers: GrantRevoker[];
  /** Removed users' sessions end as by a sign-out, with their Logout Tokens (docs/oidc.md, "Sign-out and back-channel logout"). */
  sessionEnd: SessionEnd;
  takeApplyLock(tx: Tx): Promise<void>;
  refreshStatistics: Storage['refreshStatistics'];
}

export function gitopsStoreOf(storage: Storage, config: Pick<Config, 'scheduler'>, clock: Clock): GitopsStore {
  const { users, clients, groups, tokens, terms, identityProviders, settings, grantRevokers } = storage.repositories;
  return {
    users,
    clients,
    groups,
    tokens,
    terms,
    identityProviders,
    settings,
    revokers: grantRevokers,
    sessionEnd: createSessionEnd({
      sessions: storage.repositories.sessions,
      tokens,
      codes: storage.repositories.authorizationCodes,
      deviceCodes: storage.repositories.deviceCodes,
      outbox: logoutJobOutbox({
        jobs: storage.repositories.backgroundJobs,
        maxAttempts: config.scheduler.backgroundMaxAttempts,
        clock,
      }),
      clock,
    }),
    takeApplyLock: (tx) => storage.takeApplyLock(tx),
    refreshStatistics: (tx, changedRows) => storage.refreshStatistics(tx, changedRows),
  };
}
