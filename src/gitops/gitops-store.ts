import type {
  ClientRepository,
  GrantRevoker,
  IdentityProviderRepository,
  SettingsRepository,
  Storage,
  TermRepository,
  Tx,
  UserRepository,
} from '../storage/repositories.js';

/** The storage plan and apply work with. */
export interface GitopsStore {
  users: UserRepository;
  clients: ClientRepository;
  terms: TermRepository;
  identityProviders: IdentityProviderRepository;
  settings: SettingsRepository;
  revokers: GrantRevoker[];
  takeApplyLock(tx: Tx): Promise<void>;
  refreshStatistics: Storage['refreshStatistics'];
}

export function gitopsStoreOf(storage: Storage): GitopsStore {
  const { users, clients, terms, identityProviders, settings, grantRevokers } = storage.repositories;
  return {
    users,
    clients,
    terms,
    identityProviders,
    settings,
    revokers: grantRevokers,
    takeApplyLock: (tx) => storage.takeApplyLock(tx),
    refreshStatistics: (tx, changedRows) => storage.refreshStatistics(tx, changedRows),
  };
}
