import type { Clock } from '../clock.js';
import type { TokensConfig } from '../config/types.js';
import type { EventLog } from '../events/index.js';
import type { ClientGrantType } from '../model/index.js';
import type { KeyStore, SigningPool } from '../keys/index.js';
import type { ClientDirectory, ClientSecretVerifier } from '../clients/index.js';
import type {
  AuthorizationCodeRepository,
  DeviceCodeRepository,
  TokenRepository,
  Tx,
  UserRepository,
} from '../storage/repositories.js';
import type { CachedReads } from './cached-reads.js';
import type { RefreshTokenBatches } from './tokens/refresh-token-batches.js';
import type { VerifiedTokenCache } from './tokens/verified-token-cache.js';

/**
 * What the token side of the engine (token, userinfo, revocation,
 * introspection, end-session, discovery) works with. Built once by
 * createProtocolDeps from the composition root.
 */
export interface ProtocolDeps {
  /** server.base_url without a trailing slash (OIDC Discovery §3: iss must match exactly). */
  issuer: string;
  tokens: TokensConfig;
  clock: Clock;
  db: Tx;
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  keys: KeyStore;
  /** Signs every JWT off the main thread (owned and closed by the composition root). */
  signingPool: SigningPool;
  clients: ClientDirectory;
  secrets: ClientSecretVerifier;
  tokenStore: TokenRepository;
  codes: AuthorizationCodeRepository;
  /** Device authorization requests (RFC 8628): the device authorization endpoint and the device_code grant. */
  deviceCodes: DeviceCodeRepository;
  users: UserRepository;
  /** Access-token and grant liveness and users, from memory while the cache generation stands still. */
  cachedReads: CachedReads;
  /** Access tokens already verified, by their text, until they expire. */
  verifiedTokens: VerifiedTokenCache;
  /** Refresh-token lookups and rotations, grouped per event-loop turn. */
  refreshTokens: RefreshTokenBatches;
  /** The audit log: a refresh refused for lost access records access.denied. */
  events: EventLog;
  /** Hears each successful token response (the `idp_tokens_issued_total` counter); does nothing without metrics. */
  onTokensIssued: (grantType: ClientGrantType) => void;
}
