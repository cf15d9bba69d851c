// @ts-check
/** The clients both servers under test register, and their Basic headers. */
const basic = (/** @type {string} */ id, /** @type {string} */ secret) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

export const benchClients = {
  svc: { id: 'svc', secret: 'svc-bench-secret-0123456789abcdef', basic: basic('svc', 'svc-bench-secret-0123456789abcdef') },
  web: { id: 'web', secret: 'web-bench-secret-0123456789abcdef', basic: basic('web', 'web-bench-secret-0123456789abcdef') },
};

/**
 * Live refresh tokens shared by the connections (each response puts its new
 * token back). Enough for the tokens in flight when the warm-up is cut off
 * (up to one per connection) to be lost without starving the measured run.
 */
export const refreshPoolSize = 150;
