import type { Clock } from '../clock.js';
import type { ClientChangeProbe, ClientRepository, Tx } from '../storage/repositories.js';
import type { ClientRecord } from '../model/index.js';
import { clientOrigins, type ClientOrigins } from './client-origins.js';

export interface ClientDirectory {
  /** The client as stored, at most `maxStalenessMs` old. */
  find(clientId: string): Promise<ClientRecord | null>;
  /** The web origins of the clients' redirect URIs (CORS), as fresh as find. */
  origins(): Promise<ClientOrigins>;
  /** Probes now: after this process applied the config, its own clients need not wait out the staleness bound. */
  refresh(): Promise<void>;
}

/**
 * Clients held in memory so that a token request costs no database round
 * trip (issue 4's throughput target). Staleness bound: at most once per
 * `maxStalenessMs` (1 s by default) one caller probes the table's
 * fingerprint (row count and latest updated_at: one aggregate query) and
 * reloads every client when it changed. So a client removed or changed by
 * `idp apply` on any instance stops or changes within about a second here.
 */
export function createClientDirectory(deps: {
  db: Tx;
  clients: ClientRepository;
  probe: ClientChangeProbe;
  clock: Clock;
  maxStalenessMs?: number;
}): ClientDirectory {
  const maxStalenessMs = deps.maxStalenessMs ?? 1000;
  let byId = new Map<string, ClientRecord>();
  let origins = clientOrigins([]);
  let fingerprint: string | null = null;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let checking: Promise<void> | null = null;

  async function check(): Promise<void> {
    const current = await deps.probe.fingerprint(deps.db);
    if (current !== fingerprint) {
      const all = await deps.clients.listAll(deps.db);
      byId = new Map(all.map((c) => [c.clientId, c]));
      origins = clientOrigins(all);
      fingerprint = current;
    }
    checkedAt = deps.clock.now();
  }

  // Awaited only when stale: every token request looks its client up, and a fresh cache costs no microtask.
  const stale = () => deps.clock.now() - checkedAt >= maxStalenessMs;
  const refresh = () => (checking ??= check().finally(() => (checking = null)));

  return {
    async find(clientId) {
      if (stale()) await refresh();
      return byId.get(clientId) ?? null;
    },
    async origins() {
      if (stale()) await refresh();
      return origins;
    },
    async refresh() {
      // A probe already running may have read the table before the apply committed: wait for it, then probe again.
      await checking;
      await refresh();
    },
  };
}
