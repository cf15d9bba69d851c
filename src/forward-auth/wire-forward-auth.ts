import type { AreaBase } from '../area-wiring.js';
import type { EventLog } from '../events/index.js';
import type { CachedReads } from '../oidc/cached-reads.js';
import { createForwardAuth } from './forward-auth-service.js';

/**
 * The forward-auth area (HttpDeps forwardAuth): the answer to a reverse
 * proxy's question about one request. It reads through the protocol area's
 * generation-checked caches, so that one generation read per event-loop
 * turn serves bearer requests and forward-auth checks alike.
 */
export function wireForwardAuth(base: AreaBase, needs: { cachedReads: CachedReads; events: EventLog }) {
  const { config, storage, clock } = base;
  const forwardAuth = createForwardAuth({
    config: config.forwardAuth,
    security: config.security,
    cachedReads: needs.cachedReads,
    db: storage.db,
    sessions: storage.repositories.sessions,
    storage,
    events: needs.events,
    clock,
  });
  return { services: { forwardAuth } };
}
