import type { Knex } from 'knex';
import type { DatabaseConfig } from '../../config/types.js';
import type { Repositories, Storage } from '../repositories.js';
import { connectDatabase, isPostgres } from './connect.js';
import { migrateUp, migrationStatus } from './migrate.js';
import { knexOf, txOf } from './on-knex.js';
import { takeApplyLock } from './apply-lock.js';
import { refreshStatistics } from './refresh-statistics.js';
import { grantRevokers } from './grant-revokers.js';
import { knexSnapshots } from './snapshots.js';
import { openGenerationReader } from './generation-reader.js';
import { knexUserRepository } from './users.js';
import { knexSessionRepository } from './sessions.js';
import { knexLoginRateLimitRepository } from './login-rate-limits.js';
import { knexTotpRepository } from './totp.js';
import { knexRecoveryCodeRepository } from './recovery-codes.js';
import { knexPasskeyRepository } from './passkeys.js';
import { knexWebAuthnChallengeRepository } from './webauthn-challenges.js';
import { knexLinkTokenRepository } from './link-tokens.js';
import { knexFirstAdminTokenRepository } from './first-admin-tokens.js';
import { knexTermAcceptanceRepository } from './term-acceptances.js';
import { knexAuthorizationCodeRepository } from './authorization-codes.js';
import { knexConsentRepository } from './consents.js';
import { knexClientRepository } from './clients.js';
import { knexClientChangeProbe } from './client-change-probe.js';
import { knexTermRepository } from './terms.js';
import { knexIdentityProviderRepository } from './identity-providers.js';
import { knexConnectionRepository } from './connections.js';
import { knexUpstreamStateRepository } from './upstream-states.js';
import { knexSettingsRepository } from './settings.js';
import { knexBackgroundJobRepository } from './background-jobs.js';
import { knexSchedulerLeaseRepository } from './scheduler-leases.js';
import { knexGarbageCollector } from './collect-garbage.js';
import { knexSigningKeyRepository } from './signing-keys.js';
import { knexTokenRepository } from './tokens.js';
import { knexCacheGenerationRepository } from './cache-generation.js';
import { knexEventRepository } from './events.js';
import { knexGroupRepository } from './groups.js';
import { knexPushedAuthorizationRequestRepository } from './pushed-authorization-requests.js';
import { knexDeviceCodeRepository } from './device-codes.js';

export const knexRepositories: Repositories = {
  users: knexUserRepository,
  sessions: knexSessionRepository,
  loginRateLimits: knexLoginRateLimitRepository,
  totp: knexTotpRepository,
  recoveryCodes: knexRecoveryCodeRepository,
  passkeys: knexPasskeyRepository,
  webauthnChallenges: knexWebAuthnChallengeRepository,
  linkTokens: knexLinkTokenRepository,
  firstAdminTokens: knexFirstAdminTokenRepository,
  termAcceptances: knexTermAcceptanceRepository,
  authorizationCodes: knexAuthorizationCodeRepository,
  consents: knexConsentRepository,
  clients: knexClientRepository,
  clientProbe: knexClientChangeProbe,
  terms: knexTermRepository,
  identityProviders: knexIdentityProviderRepository,
  connections: knexConnectionRepository,
  upstreamStates: knexUpstreamStateRepository,
  settings: knexSettingsRepository,
  backgroundJobs: knexBackgroundJobRepository,
  schedulerLeases: knexSchedulerLeaseRepository,
  signingKeys: knexSigningKeyRepository,
  tokens: knexTokenRepository,
  cacheGeneration: knexCacheGenerationRepository,
  events: knexEventRepository,
  groups: knexGroupRepository,
  pushedAuthorizationRequests: knexPushedAuthorizationRequestRepository,
  deviceCodes: knexDeviceCodeRepository,
  grantRevokers,
};

/**
 * The Storage on SQLite or PostgreSQL through knex. Connections open lazily:
 * nothing is sent before the first query (`ping()` is the first one a
 * command makes, so an unreachable database is reported there).
 */
export function openKnexStorage(config: DatabaseConfig): Storage {
  const knex = connectDatabase(config);
  const generation = openGenerationReader(config, () => knexCacheGenerationRepository.read(txOf(knex)));
  return {
    engine: isPostgres(knex) ? 'postgres' : 'sqlite',
    db: txOf(knex),
    repositories: knexRepositories,
    transaction: (work) => knex.transaction((trx) => work(txOf(trx))),
    collectGarbage: (now, policy) => knexGarbageCollector.collect(txOf(knex), now, policy),
    takeApplyLock: (tx) => takeApplyLock(knexOf(tx)),
    refreshStatistics: (tx, changedRows) => refreshStatistics(knexOf(tx), changedRows),
    afterCommit(tx, effect) {
      const handle = knexOf(tx);
      // A transaction's executionPromise settles when it commits or rolls back.
      if (handle.isTransaction) (handle as Knex.Transaction).executionPromise.then(effect, () => undefined);
      else effect();
    },
    snapshots: knexSnapshots(knex),
    async ping() {
      await knex.raw('SELECT 1');
    },
    readCacheGeneration: () => generation.read(),
    migrate: () => migrateUp(knex),
    migrationStatus: () => migrationStatus(knex),
    async close() {
      await generation.close();
      await knex.destroy();
    },
  };
}
