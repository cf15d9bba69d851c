import { ApiError } from '../api-error.js';
import type { UserFactorReader } from '../accounts/index.js';
import type { UserRecord } from '../model/index.js';
import type { EventLog } from '../events/index.js';
import type { ConnectionRepository, IdentityProviderRepository, Tx } from '../storage/repositories.js';
import type { UpstreamDirectory } from './upstream-provider.js';

/** One entry of GET /api/connections. */
export interface ConnectionView {
  providerId: string;
  /** null when the provider is no longer applied. */
  type: string | null;
  displayName: string;
  email: string | null;
  linkedAt: number;
  /** The provider is usable now; a connection of a disabled or removed provider waits for it to return. */
  available: boolean;
}

export const connectionNotFound = () =>
  new ApiError(404, 'CONNECTION_NOT_FOUND', 'No connection to this provider exists for your account.');
export const lastSignInMethod = () =>
  new ApiError(
    409,
    'LAST_SIGN_IN_METHOD',
    'This connection is your only way to sign in. Set a password or connect another provider first.',
  );

/**
 * The OAuth Connect API (docs/http-api.md, "Upstream identity providers"): a user's connections, and removing
 * one unless it is the last way into the account: no password, no passkey,
 * and no other connection to a provider that works now.
 */
export function createConnectionService(deps: {
  db: Tx;
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  connections: ConnectionRepository;
  providers: IdentityProviderRepository;
  directory: UpstreamDirectory;
  factors: UserFactorReader;
  events: EventLog;
}) {
  return {
    async list(sub: string): Promise<ConnectionView[]> {
      const [connections, applied, usable] = await Promise.all([
        deps.connections.listBySub(deps.db, sub),
        deps.providers.listAll(deps.db),
        deps.directory.list(),
      ]);
      const appliedById = new Map(applied.map((p) => [p.id, p]));
      const usableById = new Map(usable.map((p) => [p.id, p]));
      return connections.map((connection) => {
        const provider = usableById.get(connection.providerId);
        const record = appliedById.get(connection.providerId);
        return {
          providerId: connection.providerId,
          type: provider?.type ?? record?.type ?? null,
          displayName: provider?.displayName ?? record?.displayName ?? connection.providerId,
          email: connection.email,
          linkedAt: connection.linkedAt,
          available: provider !== undefined,
        };
      });
    },

    async remove(user: UserRecord, providerId: string, context: { clientAddress: string }): Promise<void> {
      const connections = await deps.connections.listBySub(deps.db, user.sub);
      if (!connections.some((c) => c.providerId === providerId)) throw connectionNotFound();
      const usable = new Set((await deps.directory.list()).map((p) => p.id));
      const otherConnections = connections.filter(
        (c) => c.providerId !== providerId && usable.has(c.providerId),
      ).length;
      const passkeys = (await deps.factors.summarize([user.sub])).get(user.sub)?.passkeyCount ?? 0;
      if (user.passwordHash === null && passkeys === 0 && otherConnections === 0) throw lastSignInMethod();
      await deps.transaction(async (tx) => {
        if (!(await deps.connections.delete(tx, user.sub, providerId))) throw connectionNotFound();
        await deps.events.record(tx, {
          type: 'provider.unlinked',
          actor: user.sub,
          subject: user.sub,
          clientAddress: context.clientAddress,
          detail: { provider: providerId },
        });
      });
    },
  };
}

export type ConnectionService = ReturnType<typeof createConnectionService>;
