// @ts-check
/**
 * The token endpoint and its neighbours under concurrent load (issue 4):
 * autocannon, 50 connections, 2 s warm-up then 10 s, against servers in
 * child processes (never in the autocannon process):
 *
 * - idp client_credentials, ES256 and RS256, beside oidc-provider@9
 *   configured alike (JWT access tokens for a default resource, same alg),
 *   in 3 interleaved rounds (medians; the ratio is the median of per-round
 *   ratios): targets >= 2x with ES256, >= 1.2x with RS256, p99 < 15 ms;
 * - idp refresh_token (rotating: each connection presents the token its
 *   previous response returned), userinfo, discovery and JWKS (ES256);
 * - a bare hapi route that only parses a form body: the ceiling.
 *
 * Run once (it takes about four minutes): `npm run bench -- token`.
 */
import { startServerChild } from '../lib/server-child.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { benchClients } from './token/bench-clients.js';

export const description = 'token endpoint (client_credentials, refresh_token), userinfo, discovery, JWKS vs oidc-provider and a bare hapi route';

const here = path.join(path.dirname(fileURLToPath(import.meta.url)), 'token');
const CONNECTIONS = 50;
const WARMUP_S = 2;
const DURATION_S = 10;
const ROUNDS = 3;
const form = 'application/x-www-form-urlencoded';

/** @param {string} script @param {string[]} args */
function startServer(script, args) {
  return startServerChild(path.join(here, script), args, { killAfterMs: 3000 });
}

/**
 * @param {autocannon.Options} options
 * @returns {Promise<{ rps: number, p50: number, p99: number, failed: number }>}
 */
async function load(options) {
  const base = { connections: CONNECTIONS, ...options };
  await autocannon({ ...base, duration: WARMUP_S });
  const result = await autocannon({ ...base, duration: DURATION_S });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, failed: result.non2xx + result.errors + result.timeouts };
}

/** @param {string} name @param {{ rps: number, p50: number, p99: number, failed: number }} r @param {{ p99?: number }} targets */
function rows(name, r, targets = {}) {
  const note = r.failed > 0 ? `${r.failed} failed responses` : undefined;
  return [
    { name, metric: 'req/s', value: Math.round(r.rps), unit: 'req/s', note },
    { name, metric: 'p50', value: r.p50, unit: 'ms' },
    { name, metric: 'p99', value: r.p99, unit: 'ms', target: targets.p99 ? { max: targets.p99 } : null },
  ];
}

/** @param {string} tokenEndpoint */
const clientCredentials = (tokenEndpoint) => ({
  url: tokenEndpoint,
  method: /** @type {const} */ ('POST'),
  headers: { authorization: benchClients.svc.basic, 'content-type': form },
  body: 'grant_type=client_credentials&scope=api%3Aread',
});

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Loads each server in turn, ROUNDS times, after one warm-up each, so that a
 * noisy minute on this shared machine hits every server alike; the figures
 * are per-server medians and the ratio is the median of per-round ratios.
 * @param {{ name: string, options: autocannon.Options }[]} targets
 */
async function interleaved(targets) {
  for (const t of targets) await autocannon({ connections: CONNECTIONS, ...t.options, duration: WARMUP_S });
  /** @type {Map<string, { rps: number, p50: number, p99: number, failed: number }[]>} */
  const runs = new Map(targets.map((t) => [t.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of targets) {
      const result = await autocannon({ connections: CONNECTIONS, ...t.options, duration: DURATION_S });
      runs.get(t.name)?.push({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, failed: result.non2xx + result.errors + result.timeouts });
    }
  }
  const summary = (/** @type {string} */ name) => {
    const r = runs.get(name) ?? [];
    return { rps: median(r.map((x) => x.rps)), p50: median(r.map((x) => x.p50)), p99: median(r.map((x) => x.p99)), failed: r.reduce((n, x) => n + x.failed, 0) };
  };
  const ratio = (/** @type {string} */ a, /** @type {string} */ b) => {
    const ra = runs.get(a) ?? [];
    const rb = runs.get(b) ?? [];
    return median(ra.map((x, i) => x.rps / rb[i].rps));
  };
  return { summary, ratio };
}

/**
 * refresh_token, userinfo, discovery and JWKS against a running idp.
 * @param {{ url: string, accessToken: string, refreshTokens: string[] }} info
 */
async function neighbours({ url, accessToken, refreshTokens }) {
  // Each request takes a live refresh token and puts back the one it gets: rotation, never reuse.
  const pool = [...refreshTokens];
  const refresh = await load({
    url: `${url}/oauth2/token`,
    method: 'POST',
    headers: { authorization: benchClients.web.basic, 'content-type': form },
    requests: [
      {
        setupRequest(request) {
          return { ...request, body: `grant_type=refresh_token&refresh_token=${pool.shift()}` };
        },
        onResponse(status, body) {
          if (status === 200) pool.push(JSON.parse(body).refresh_token);
        },
      },
    ],
  });
  return [
    ...rows('refresh_token ES256 idp', refresh),
    ...rows('userinfo ES256 idp', await load({ url: `${url}/oauth2/userinfo`, headers: { authorization: `Bearer ${accessToken}` } })),
    ...rows('discovery idp', await load({ url: `${url}/.well-known/openid-configuration` })),
    ...rows('jwks idp', await load({ url: `${url}/oauth2/jwks` })),
  ];
}

export async function run() {
  const out = [];
  for (const [alg, ratioTarget] of /** @type {const} */ ([['ES256', 2], ['RS256', 1.2]])) {
    const idp = await startServer('idp-server.js', [alg]);
    try {
      const peer = await startServer('oidc-provider-server.js', [alg]);
      const hapi = alg === 'ES256' ? await startServer('bare-hapi-server.js', []).catch(async (error) => {
        await peer.stop();
        throw error;
      }) : null;
      try {
        // oidc-provider's token endpoint is /token.
        const targets = [
          { name: 'idp', options: clientCredentials(`${idp.info.url}/oauth2/token`) },
          { name: 'oidc-provider', options: clientCredentials(`${peer.info.url}/token`) },
          ...(hapi ? [{ name: 'hapi', options: clientCredentials(`${hapi.info.url}/oauth2/token`) }] : []),
        ];
        const { summary, ratio } = await interleaved(targets);
        out.push(...rows(`client_credentials ${alg} idp`, summary('idp'), { p99: 15 }));
        out.push(...rows(`client_credentials ${alg} oidc-provider`, summary('oidc-provider')));
        out.push({ name: `client_credentials ${alg} idp / oidc-provider`, metric: 'ratio', value: Number(ratio('idp', 'oidc-provider').toFixed(2)), unit: 'x', target: { min: ratioTarget } });
        if (hapi) {
          out.push(...rows('bare hapi form route (ceiling)', summary('hapi')));
          out.push({ name: `client_credentials ${alg} idp / bare hapi`, metric: 'ratio', value: Number(ratio('idp', 'hapi').toFixed(2)), unit: 'x' });
        }
      } finally {
        await Promise.all([peer.stop(), hapi?.stop()]);
      }
      if (alg === 'ES256') out.push(...(await neighbours(idp.info)));
    } finally {
      await idp.stop();
    }
  }
  return out;
}
