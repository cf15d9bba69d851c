import type { Clock } from '../../clock.js';
import type { Config } from '../../config/types.js';
import type { AuthorizationCodeRepository, ClientRepository, ConsentRepository, Tx } from '../../storage/repositories.js';
import type { AuthorizeDeps } from './types.js';

/** Wires the authorization steps to storage (called by the composition root). */
export function createAuthorizeDeps(deps: {
  db: Tx;
  clients: ClientRepository;
  consents: ConsentRepository;
  codes: AuthorizationCodeRepository;
  config: Pick<Config, 'server' | 'tokens'>;
  clock: Clock;
}): AuthorizeDeps {
  const { db, clients, consents, codes, config, clock } = deps;
  return {
    issuer: config.server.baseUrl,
    clock,
    codeTtlSeconds: config.tokens.authorizationCodeTtlSeconds,
    findClient: (clientId) => clients.findById(db, clientId),
    async grantedScopes(sub, clientId) {
      return (await consents.find(db, sub, clientId))?.scopes ?? [];
    },
    saveCode: (record) => codes.insert(db, record),
  };
}
