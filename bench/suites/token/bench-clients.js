// @ts-check
/** The clients and the user every server under test registers, and the clients' Basic headers. */
const basic = (/** @type {string} */ id, /** @type {string} */ secret) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

export const benchClients = {
  svc: {
    id: 'svc',
    secret: 'svc-bench-secret-0123456789abcdef',
    basic: basic('svc', 'svc-bench-secret-0123456789abcdef'),
  },
  web: {
    id: 'web',
    secret: 'web-bench-secret-0123456789abcdef',
    basic: basic('web', 'web-bench-secret-0123456789abcdef'),
  },
};

export const benchUser = { sub: 'alice', email: 'alice@example.com' };

/** The scope of every user token (access, refresh), on every server. */
export const userScope = 'openid email offline_access';

/**
 * Live refresh tokens in one server's pool at the start of every run (the
 * suite tops it up between runs: a run cut off at its end loses the tokens
 * in flight, up to one per connection). Twice the 50 connections, so that
 * the pool never runs dry, and no more: every token of the pool is used
 * once per this many requests, and oidc-provider's in-memory store (an LRU
 * of 1,000 to 2,000 entries, into which one refresh may put up to five)
 * drops a token left unused for a thousand entries.
 */
export const refreshPoolSize = 2 * 50;
