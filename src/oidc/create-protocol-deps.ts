import type { Clock } from '../clock.js';
import type { Config } from '../config/types.js';
import { createClientDirectory, createClientSecretVerifier } from '../clients/index.js';
import type { VerifyArgon2 } from '../clients/verify-client-secret.js';
import {
  createKeyStore,
  keyEncryptionKey,
  keyRefreshIntervalMs,
  keySwitchWithinMs,
  type SigningPool,
} from '../keys/index.js';
import type { EventLog } from '../events/index.js';
import { createGenerationGate } from '../storage/generation-gate.js';
import type {
  AuthorizationCodeRepository,
  DeviceCodeRepository,
  ClientChangeProbe,
  ClientRepository,
  SigningKeyRepository,
  TokenRepository,
  Tx,
  UserRepository,
  GroupRepository,
  SessionRepository,
} from '../storage/repositories.js';
import type { ProtocolDeps } from './protocol-deps.js';
import { createCachedReads } from './cached-reads.js';
import { createRefreshTokenBatches } from './tokens/refresh-token-batches.js';
import { createVerifiedTokenCache } from './tokens/verified-token-cache.js';
import { accessTokenClockToleranceSeconds } from './tokens/verify-access-token.js';

/** server.base_url without trailing slashes: the issuer compared by relying parties to the letter. */
export function issuerOf(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

/**
 * Builds the token side of the engine and loads (or creates) the signing
 * keys. Called once by the composition root with the resolved secret.
 */
export async function createProtocolDeps(deps: {
  config: Pick<Config, 'server' | 'tokens' | 'clients'>;
  secret: string;
  clock: Clock;
  db: Tx;
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  signingPool: SigningPool;
  repositories: {
    signingKeys: SigningKeyRepository;
    clients: ClientRepository;
    clientProbe: ClientChangeProbe;
    tokens: TokenRepository;
    codes: AuthorizationCodeRepository;
    deviceCodes: DeviceCodeRepository;
    users: UserRepository;
    groups: GroupRepository;
    sessions: SessionRepository;
  };
  /** Storage.readCacheGeneration: the read the generation-checked caches wait for. */
  readCacheGeneration: () => Promise<number>;
  /** How many statements the database runs at once (SQLite: one connection). */
  databaseConnections: number;
  verifyArgon2: VerifyArgon2;
  events: EventLog;
  onTokensIssued: ProtocolDeps['onTokensIssued'];
}): Promise<ProtocolDeps> {
  const { config, clock, db, repositories } = deps;
  const keys = createKeyStore({
    db,
    keys: repositories.signingKeys,
    kek: keyEncryptionKey(deps.secret),
    clock,
    alg: config.tokens.signingAlg,
    // A key per algorithm the configured clients' ID tokens need, so that discovery lists it from the start.
    algorithms: config.clients.map((c) => c.idTokenSignedResponseAlg),
    refreshIntervalMs: keyRefreshIntervalMs,
    retireAfterMs: signingKeyRetireAfterMs(config.tokens),
  });
  await keys.init();
  return {
    issuer: issuerOf(config.server.baseUrl),
    tokens: config.tokens,
    clock,
    db,
    transaction: deps.transaction.bind(deps),
    keys,
    signingPool: deps.signingPool,
    clients: createClientDirectory({ db, clients: repositories.clients, probe: repositories.clientProbe, clock }),
    secrets: createClientSecretVerifier(deps.verifyArgon2),
    tokenStore: repositories.tokens,
    codes: repositories.codes,
    deviceCodes: repositories.deviceCodes,
    users: repositories.users,
    cachedReads: createCachedReads({
      gate: createGenerationGate(deps.readCacheGeneration),
      db,
      tokenStore: repositories.tokens,
      users: repositories.users,
      groups: repositories.groups,
      sessions: repositories.sessions,
    }),
    verifiedTokens: createVerifiedTokenCache({
      maxEntries: 50_000,
      clockToleranceSeconds: accessTokenClockToleranceSeconds,
    }),
    refreshTokens: createRefreshTokenBatches({
      db,
      tokenStore: repositories.tokens,
      clock,
      refreshTokenTtlSeconds: config.tokens.refreshTokenTtlSeconds,
      // Half the pool: the lookups, the rotations and every other request share it.
      concurrency: Math.max(1, Math.floor(deps.databaseConnections / 2)),
    }),
    events: deps.events,
    onTokensIssued: deps.onTokensIssued,
  };
}

/** A replaced key stays published while tokens it signed may live, plus the time instances take to switch keys. */
export function signingKeyRetireAfterMs(tokens: Config['tokens']): number {
  return Math.max(tokens.accessTokenTtlSeconds, tokens.idTokenTtlSeconds) * 1000 + keySwitchWithinMs;
}
