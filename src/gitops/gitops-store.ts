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
  takeApplyLock(tx: Tx): Promise<void>;
  refreshStatistics: Storage['refreshStatistics'];
}

export function gitopsStoreOf(storage: Storage): GitopsStore {
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
    takeApplyLock: (tx) => storage.takeApplyLock(tx),
    refreshStatistics: (tx, changedRows) => storage.refreshStatistics(tx, changedRows),
  };
}
