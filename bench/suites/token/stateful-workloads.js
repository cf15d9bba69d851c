// @ts-check
/**
 * The endpoints that read or write the token store, as autocannon options
 * for one server, each with a check that one request gets the expected
 * answer (run before the load: a misconfigured server fails loudly instead
 * of benchmarking its error responses, and an inactive introspection
 * answers 200 too).
 */
import { benchClients, benchUser, refreshPoolSize } from './bench-clients.js';

/**
 * What a server process reports when it is ready (idp-server.js, oidc-provider-server.js).
 * @typedef {{ token: string, userinfo: string, introspection: string, discovery: string, jwks: string }} ServerPaths
 * @typedef {{ url: string, paths: ServerPaths, accessToken: string, refreshTokens: string[], introspectedRefreshToken: string }} ServerInfo
 * A server as the workloads see it: its report, and a way to ask it for more refresh tokens.
 * @typedef {{ info: ServerInfo, mintRefreshTokens: (count: number) => Promise<string[]> }} BenchServer
 * @typedef {{ options: import('autocannon').Options, check: () => Promise<void>, beforeRun?: () => Promise<void> }} WorkloadTarget
 * @typedef {{ name: string, peerNote?: string, target: (server: BenchServer) => WorkloadTarget }} Workload
 */

const form = 'application/x-www-form-urlencoded';

/** @param {string} url @param {RequestInit} init @param {(body: any) => boolean} expected */
async function expectJson(url, init, expected) {
  const response = await fetch(url, init);
  const text = await response.text();
  /** @type {any} */
  let body = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: body stays null and the check below reports the answer.
  }
  if (response.status !== 200 || !expected(body))
    throw new Error(`${init.method ?? 'GET'} ${url} answered ${response.status} ${text.slice(0, 300)}`);
  return body;
}

const isJwt = (/** @type {unknown} */ token) => typeof token === 'string' && token.split('.').length === 3;

/** GET userinfo with a Bearer access token. @param {BenchServer} server @returns {WorkloadTarget} */
function userinfo({ info }) {
  const url = info.url + info.paths.userinfo;
  const headers = { authorization: `Bearer ${info.accessToken}` };
  return {
    options: { url, headers },
    check: async () =>
      void (await expectJson(
        url,
        { headers },
        (body) => body?.sub === benchUser.sub && body.email === benchUser.email,
      )),
  };
}

/** RFC 7662 by the web client (confidential, client_secret_basic). @param {'access_token' | 'refresh_token'} hint */
const introspection =
  (hint) =>
  (/** @type {BenchServer} */ { info }) => {
    const url = info.url + info.paths.introspection;
    const token = hint === 'access_token' ? info.accessToken : info.introspectedRefreshToken;
    const headers = { authorization: benchClients.web.basic, 'content-type': form };
    const body = `token=${encodeURIComponent(token)}&token_type_hint=${hint}`;
    return {
      options: { url, method: /** @type {const} */ ('POST'), headers, body },
      check: async () =>
        void (await expectJson(
          url,
          { method: 'POST', headers, body },
          (answer) => answer?.active === true && answer.sub === benchUser.sub,
        )),
    };
  };

/**
 * refresh_token with rotation: each request takes a live token from this
 * server's pool and puts back the one its response returns, so no token is
 * presented twice. A failed response loses its token, and so does a
 * request in flight when a run ends: the pool is topped up before each run.
 * @param {BenchServer} server @returns {WorkloadTarget}
 */
function rotatingRefresh({ info, mintRefreshTokens }) {
  const url = info.url + info.paths.token;
  const headers = { authorization: benchClients.web.basic, 'content-type': form };
  const pool = [...info.refreshTokens];
  const bodyFor = (/** @type {string | undefined} */ token) => `grant_type=refresh_token&refresh_token=${token}`;
  return {
    options: {
      url,
      method: 'POST',
      headers,
      requests: [
        {
          setupRequest: (request) => ({ ...request, body: bodyFor(pool.shift()) }),
          onResponse(status, body) {
            if (status === 200) pool.push(JSON.parse(body).refresh_token);
          },
        },
      ],
    },
    async check() {
      const answer = await expectJson(
        url,
        { method: 'POST', headers, body: bodyFor(pool.shift()) },
        (body) => isJwt(body?.access_token) && isJwt(body.id_token) && typeof body.refresh_token === 'string',
      );
      pool.push(answer.refresh_token);
    },
    async beforeRun() {
      if (pool.length < refreshPoolSize) pool.push(...(await mintRefreshTokens(refreshPoolSize - pool.length)));
    },
  };
}

/**
 * Each runs on fresh servers (bench/suites/token.js): oidc-provider's
 * in-memory store is an LRU of about 2,000 entries, and a refresh load,
 * which writes a token per request, would evict the tokens another
 * workload presents.
 * @type {Workload[]}
 */
export const statefulWorkloads = [
  {
    name: 'userinfo',
    peerNote: 'opaque access token: its userinfo refuses a JWT access token for a resource',
    target: userinfo,
  },
  {
    name: 'introspect access token',
    peerNote: 'opaque access token: its introspection refuses JWTs',
    target: introspection('access_token'),
  },
  { name: 'introspect refresh token', target: introspection('refresh_token') },
  { name: 'refresh_token rotating', target: rotatingRefresh },
];
