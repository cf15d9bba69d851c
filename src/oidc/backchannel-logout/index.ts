/**
 * OpenID Back-Channel Logout 1.0, the OP's side. A sign-out (src/accounts,
 * session-end.ts) queues one `backchannel.logout` job per client with a
 * `backchannel_logout_uri` that got a grant in the ended session, in the
 * sign-out's transaction. The job's handler (./backchannel-logout-job.ts)
 * reads the client as it is when the job runs, signs a Logout Token
 * (./issue-logout-token.ts) with the client's ID token algorithm and POSTs it
 * (./deliver-logout-token.ts); a failure or a timeout throws, and the
 * scheduler retries until its attempt limit. docs/oidc.md, "Sign-out and
 * back-channel logout".
 */
export { createBackchannelLogoutJob, defaultBackchannelLogoutTimeoutMs } from './backchannel-logout-job.js';
export { issueLogoutToken, backchannelLogoutEvent, logoutTokenTtlSeconds } from './issue-logout-token.js';
