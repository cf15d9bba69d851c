import type {
  ClientRepository,
  GrantRevoker,
  IdentityProviderRepository,
  SettingsRepository,
  TermRepository,
  Tx,
  UserRepository,
} from '../storage/repositories.js';
import { knexUserRepository } from '../storage/knex/users.js';
import { knexClientRepository } from '../storage/knex/clients.js';
import { knexTermRepository } from '../storage/knex/terms.js';
import { knexIdentityProviderRepository } from '../storage/knex/identity-providers.js';
import { knexSettingsRepository } from '../storage/knex/settings.js';
import { grantRevokers } from '../storage/knex/grant-revokers.js';
import { takeApplyLock } from '../storage/knex/apply-lock.js';

/** The storage plan and apply work with. */
export interface GitopsStore {
  users: UserRepository;
  clients: ClientRepository;
  terms: TermRepository;
  identityProviders: IdentityProviderRepository;
  settings: SettingsRepository;
  revokers: GrantRevoker[];
  takeApplyLock(tx: Tx): Promise<void>;
}

export const knexGitopsStore: GitopsStore = {
  users: knexUserRepository,
  clients: knexClientRepository,
  terms: knexTermRepository,
  identityProviders: knexIdentityProviderRepository,
  settings: knexSettingsRepository,
  revokers: grantRevokers,
  takeApplyLock,
};
