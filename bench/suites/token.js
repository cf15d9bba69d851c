// @ts-check
/**
 * The token endpoint and its neighbours under concurrent load (issue 4):
 * autocannon, 50 connections, 2 s warm-up then 10 s, against servers in
 * child processes (never in the autocannon process):
 *
 * - idp client_credentials, ES256 and RS256, beside oidc-provider@9
 *   configured alike (JWT access tokens for a default resource, same alg),
 *   printed as ratios: targets >= 2x with ES256, >= 1.2x with RS256,
 *   p99 < 15 ms;
 * - idp refresh_token (rotating: each connection presents the token its
 *   previous response returned), userinfo, discovery and JWKS (ES256);
 * - a bare hapi route that only parses a form body: the ceiling.
 *
 * Run once (it takes about two minutes): `npm run bench -- token`.
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

export async function run() {
  const out = [];
  const hapi = await startServer('bare-hapi-server.js', []);
  try {
    out.push(...rows('bare hapi form route (ceiling)', await load(clientCredentials(`${hapi.info.url}/oauth2/token`))));
  } finally {
    await hapi.stop();
  }

  for (const [alg, ratioTarget] of /** @type {const} */ ([['ES256', 2], ['RS256', 1.2]])) {
    const peer = await startServer('oidc-provider-server.js', [alg]);
    let peerResult;
    try {
      // oidc-provider's token endpoint is /token.
      peerResult = await load(clientCredentials(`${peer.info.url}/token`));
    } finally {
      await peer.stop();
    }
    const idp = await startServer('idp-server.js', [alg]);
    try {
      const ours = await load(clientCredentials(`${idp.info.url}/oauth2/token`));
      out.push(...rows(`client_credentials ${alg} idp`, ours, { p99: 15 }));
      out.push(...rows(`client_credentials ${alg} oidc-provider`, peerResult));
      out.push({ name: `client_credentials ${alg} idp / oidc-provider`, metric: 'ratio', value: Number((ours.rps / peerResult.rps).toFixed(2)), unit: 'x', target: { min: ratioTarget } });
      if (alg !== 'ES256') continue;
      const { url, accessToken, refreshTokens } = idp.info;
      // Each request takes a live refresh token and puts back the one it gets: rotation, never reuse.
      const pool = [...refreshTokens];
      out.push(
        ...rows(
          `refresh_token ${alg} idp`,
          await load({
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
          }),
        ),
      );
      out.push(...rows(`userinfo ${alg} idp`, await load({ url: `${url}/oauth2/userinfo`, headers: { authorization: `Bearer ${accessToken}` } })));
      out.push(...rows('discovery idp', await load({ url: `${url}/.well-known/openid-configuration` })));
      out.push(...rows('jwks idp', await load({ url: `${url}/oauth2/jwks` })));
    } finally {
      await idp.stop();
    }
  }
  const ceiling = out.find((r) => r.name.startsWith('bare hapi') && r.metric === 'req/s')?.value ?? 0;
  const es = out.find((r) => r.name === 'client_credentials ES256 idp' && r.metric === 'req/s')?.value ?? 0;
  out.push({ name: 'client_credentials ES256 idp / bare hapi', metric: 'ratio', value: Number((es / ceiling).toFixed(2)), unit: 'x' });
  return out;
}
