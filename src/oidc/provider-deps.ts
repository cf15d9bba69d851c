import type { Clock } from '../clock.js';
import type { TokensConfig } from '../config/types.js';
import type { KeyStore, SigningPool } from '../keys/index.js';
import type { ClientDirectory, ClientSecretVerifier } from '../clients/index.js';
import type { AuthorizationCodeRepository, TokenRepository, Tx, UserRepository } from '../storage/repositories.js';

/**
 * What the token side of the engine (token, userinfo, revocation,
 * introspection, end-session, discovery) works with. Built once by
 * createProviderDeps from the composition root.
 */
export interface ProviderDeps {
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
  users: UserRepository;
}
