import type { Tx } from '../storage/repositories.js';

/**
 * One Logout Token to send (OpenID Back-Channel Logout 1.0): to this client,
 * for this user and the public id of the session that ended. No secret: the
 * handler signs the token when it sends it (src/oidc/backchannel-logout).
 */
export interface BackchannelLogoutJob {
  clientId: string;
  sub: string;
  sid: string;
}

/**
 * Where a sign-out puts its Logout Tokens: a background job of the scheduler,
 * inserted in the transaction that ends the session, so that the sign-out
 * never waits on (nor fails with) a client's receiver.
 * src/scheduler/wire-jobs.ts implements it with the job queue.
 */
export interface LogoutOutbox {
  queue(tx: Tx, job: BackchannelLogoutJob): Promise<void>;
}
