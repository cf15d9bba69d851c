import type { Logger } from 'pino';
import type { BackchannelLogoutJob } from '../../accounts/index.js';
import type { ProtocolDeps } from '../protocol-deps.js';
import { deliverLogoutToken } from './deliver-logout-token.js';
import { issueLogoutToken } from './issue-logout-token.js';

/** How long a receiver may take to answer before the attempt counts as failed and is retried. */
export const defaultBackchannelLogoutTimeoutMs = 10_000;

/**
 * The handler of `backchannel.logout` jobs. The client is read when the job
 * runs: a client deleted, or whose `backchannel_logout_uri` was removed,
 * since the sign-out gets nothing (the job succeeds with a log line).
 * A failed delivery throws with the receiver's address and what went wrong,
 * which the scheduler logs with the job's transition and keeps as the job's
 * last error; the token itself is never logged.
 */
export function createBackchannelLogoutJob(
  deps: Pick<ProtocolDeps, 'issuer' | 'clock' | 'keys' | 'signingPool' | 'clients'>,
  options: { timeoutMs?: number } = {},
): (job: BackchannelLogoutJob, context: { logger: Logger; signal: AbortSignal }) => Promise<void> {
  const timeoutMs = options.timeoutMs ?? defaultBackchannelLogoutTimeoutMs;
  return async (job, { logger, signal }) => {
    const client = await deps.clients.find(job.clientId);
    const uri = client?.backchannelLogoutUri ?? null;
    if (client === null || uri === null) {
      logger.info({ event: 'backchannel_logout.skipped', clientId: job.clientId }, 'no back-channel logout URI');
      return;
    }
    const token = await issueLogoutToken(
      { clientId: client.clientId, sub: job.sub, sid: job.sid, alg: client.idTokenSignedResponseAlg },
      deps,
    );
    try {
      await deliverLogoutToken(uri, token, { timeoutMs, signal });
    } catch (error) {
      throw new Error(`back-channel logout to ${uri} for ${job.clientId}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    logger.info({ event: 'backchannel_logout.delivered', clientId: job.clientId }, 'logout token delivered');
  };
}
