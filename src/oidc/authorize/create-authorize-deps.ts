import type { Clock } from '../../clock.js';
import type { Config } from '../../config/types.js';
import type { SignInDeps } from '../../interaction/index.js';
import type { AuthorizationCodeRepository, ClientRepository, Tx } from '../../storage/repositories.js';
import type { PushedRequests } from './pushed-requests.js';
import type { AuthorizeDeps } from './types.js';

/** Wires the authorization steps to storage and to the sign-in steps (called by the composition root). */
export function createAuthorizeDeps(deps: {
  db: Tx;
  clients: ClientRepository;
  codes: AuthorizationCodeRepository;
  signIn: SignInDeps;
  pushedRequests: PushedRequests;
  config: Pick<Config, 'server' | 'tokens'>;
  clock: Clock;
}): AuthorizeDeps {
  const { db, clients, codes, signIn, pushedRequests, config, clock } = deps;
  return {
    issuer: config.server.baseUrl,
    clock,
    // Read through: a config reload changes the token lifetimes in place.
    get codeTtlSeconds() {
      return config.tokens.authorizationCodeTtlSeconds;
    },
    findClient: (clientId) => clients.findById(db, clientId),
    signIn,
    saveCode: (record) => codes.insert(db, record),
    pushedRequests,
  };
}
