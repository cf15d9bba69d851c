import { ApiError } from '../api-error.js';
import type { Clock } from '../clock.js';
import type { EventLog } from '../events/index.js';
import type { Storage } from '../storage/repositories.js';

export interface UserConsent {
  clientId: string;
  /** The client's name, or its id when the client is no longer configured (the consent can still be withdrawn). */
  clientName: string;
  scopes: string[];
  grantedAt: number;
}

/** The user's own view of the applications they let in (docs/http-api.md, "Consents"; "Apps with access" on /account). */
export interface UserConsents {
  list(sub: string): Promise<UserConsent[]>;
  /**
   * Withdraws the consent and, in the same transaction, every grant the
   * user gave that client: its refresh tokens stop at once, and so do its
   * access tokens (a revoked grant fails the liveness check of userinfo and
   * introspection). The next authorization asks for consent again.
   */
  revoke(sub: string, clientId: string, context: { clientAddress: string }): Promise<void>;
}

const consentNotFound = () => new ApiError(404, 'CONSENT_NOT_FOUND', 'You have not given this application access.');

export function createUserConsents(deps: {
  storage: Pick<Storage, 'db' | 'transaction' | 'repositories'>;
  events: EventLog;
  clock: Clock;
}): UserConsents {
  const { storage, events, clock } = deps;
  const { consents, clients, tokens } = storage.repositories;
  return {
    async list(sub) {
      const granted = await consents.listBySub(storage.db, sub);
      return Promise.all(
        granted.map(async (consent) => {
          const client = await clients.findById(storage.db, consent.clientId);
          return {
            clientId: consent.clientId,
            clientName: client?.name ?? consent.clientId,
            scopes: consent.scopes,
            grantedAt: consent.grantedAt,
          };
        }),
      );
    },
    async revoke(sub, clientId, context) {
      await storage.transaction(async (tx) => {
        if (!(await consents.revoke(tx, sub, clientId))) throw consentNotFound();
        await tokens.revokeGrantsOfUserForClient(tx, sub, clientId, clock.now());
        await events.record(tx, {
          type: 'consent.revoked',
          actor: sub,
          subject: sub,
          clientId,
          clientAddress: context.clientAddress,
        });
      });
    },
  };
}
