// @ts-check
/**
 * The token endpoint and its neighbours under concurrent load (issues 4
 * and 16): autocannon, 50 connections, against servers in child processes
 * (never in the autocannon process). Servers compared run interleaved: a
 * 2 s warm-up each, then 3 rounds of BENCH_TOKEN_SECONDS (default 10) per
 * server; figures are medians (req/s counts 2xx responses), failures the
 * sum over the rounds, a ratio the median of per-round ratios. Each case
 * below starts its own servers.
 *
 * - client_credentials, ES256 and RS256: idp (SQLite) beside oidc-provider@9
 *   configured alike (JWT access tokens for a default resource, same alg)
 *   and, for ES256, a bare hapi route that only parses a form body (the
 *   ceiling): targets > 2.5x oidc-provider with ES256, > 1.2x with RS256,
 *   p99 < 15 ms. The ES256 case also loads idp's discovery and JWKS alone.
 * - The stateful endpoints, one case each, ES256: idp on SQLite and idp on
 *   PostgreSQL (a fresh database each) beside oidc-provider with its default
 *   in-memory store (not durable); user tokens with the scope openid email
 *   offline_access everywhere: userinfo (GET, Bearer), introspection of an
 *   access token and of a refresh token (the web client,
 *   client_secret_basic), refresh_token with rotation (each request presents
 *   the token a previous response returned; each server has its own pool,
 *   topped up between runs).
 *   oidc-provider's userinfo refuses a JWT access token for a resource and
 *   its introspection refuses JWTs, so in those two it is given an opaque
 *   access token, the kind its userinfo accepts. Targets: each idp > 1x
 *   oidc-provider, p99 < 30 ms.
 *
 * Each idp also runs as `idp-…-access` (idp-server.js `access`): both
 * clients admit only a group the user is in, and user tokens carry the
 * `groups` scope, so the cost of access checks and the groups claim shows
 * beside the same server without them, in the same run.
 *
 * With BENCH_TOKEN_METRICS=1, every case also runs `idp-metrics` (the
 * SQLite idp with metrics.enabled, idp-server.js `metrics`) in the same
 * interleaved rounds, and reports it beside `idp` and as the ratio
 * idp-metrics / idp: what the metrics cost, in one run.
 *
 * Run once (about fifteen minutes): `npm run bench -- token`; while
 * developing, BENCH_TOKEN_SECONDS=1 takes about two.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServerChild } from '../lib/server-child.js';
import { benchClients } from './token/bench-clients.js';
import { interleaved, load } from './token/interleaved.js';
import { statefulWorkloads } from './token/stateful-workloads.js';

const here = path.join(path.dirname(fileURLToPath(import.meta.url)), 'token');
const seconds = Number(process.env.BENCH_TOKEN_SECONDS ?? 10);
if (!(seconds > 0))
  throw new Error(`BENCH_TOKEN_SECONDS must be a positive number of seconds, not ${process.env.BENCH_TOKEN_SECONDS}`);
/** @type {import('./token/interleaved.js').LoadSettings} */
const settings = { connections: 50, warmupS: 2, durationS: seconds, rounds: 3 };
const inMemoryNote = 'in-memory store, not durable';
const withMetrics = process.env.BENCH_TOKEN_METRICS === '1';
if (!['1', '0', undefined].includes(process.env.BENCH_TOKEN_METRICS))
  throw new Error(`BENCH_TOKEN_METRICS must be 1 or 0, not ${process.env.BENCH_TOKEN_METRICS}`);

/**
 * Starts the servers (in parallel: startup is not measured), runs `use`,
 * and stops every server that started, whatever happened.
 * @template T
 * @param {[script: string, args: string[]][]} specs
 * @param {(servers: import('./token/stateful-workloads.js').BenchServer[]) => Promise<T>} use
 */
async function withServers(specs, use) {
  // The idp servers drop their database on SIGTERM: give them time before SIGKILL.
  const started = await Promise.allSettled(
    specs.map(([script, args]) => startServerChild(path.join(here, script), args, { killAfterMs: 10_000 })),
  );
  try {
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    const children = started.map(
      (s) => /** @type {PromiseFulfilledResult<Awaited<ReturnType<typeof startServerChild>>>} */ (s).value,
    );
    return await use(
      children.map((child) => ({
        info: child.info,
        async mintRefreshTokens(count) {
          const answer = await child.request({ mintRefreshTokens: count });
          if (answer.error) throw new Error(`minting refresh tokens failed: ${answer.error}`);
          return answer.refreshTokens;
        },
      })),
    );
  } finally {
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.stop() : undefined)));
  }
}

/**
 * @param {string} name
 * @param {import('./token/interleaved.js').LoadResult} r
 * @param {{ p99?: number, note?: string }} [extra]
 */
function rows(name, r, extra = {}) {
  const note =
    [r.failed > 0 ? `${r.failed} failed responses` : '', extra.note ?? ''].filter(Boolean).join('; ') || undefined;
  return [
    { name, metric: 'req/s', value: Math.round(r.rps), unit: 'req/s', note },
    { name, metric: 'p50', value: r.p50, unit: 'ms' },
    { name, metric: 'p99', value: r.p99, unit: 'ms', target: extra.p99 ? { max: extra.p99 } : null },
  ];
}

/** @param {string} name @param {number} value @param {{ min?: number, note?: string }} [extra] */
function ratioRow(name, value, extra = {}) {
  return {
    name,
    metric: 'ratio',
    value: Number(value.toFixed(2)),
    unit: 'x',
    target: extra.min ? { min: extra.min } : null,
    ...(extra.note ? { note: extra.note } : {}),
  };
}

/** @param {string} tokenEndpoint */
const clientCredentials = (tokenEndpoint) => ({
  url: tokenEndpoint,
  method: /** @type {const} */ ('POST'),
  headers: { authorization: benchClients.svc.basic, 'content-type': 'application/x-www-form-urlencoded' },
  body: 'grant_type=client_credentials&scope=api%3Aread',
});

/** @param {'ES256' | 'RS256'} alg @param {number} ratioTarget */
function clientCredentialsCase(alg, ratioTarget) {
  const ceiling = alg === 'ES256';
  /** @type {[string, string[]][]} */
  const specs = [
    ['idp-server.js', [alg, 'sqlite']],
    ['idp-server.js', [alg, 'sqlite', 'access']],
    ['oidc-provider-server.js', [alg]],
    ...(withMetrics ? /** @type {[string, string[]][]} */ ([['idp-server.js', [alg, 'sqlite', 'metrics']]]) : []),
    ...(ceiling ? /** @type {[string, string[]][]} */ ([['bare-hapi-server.js', []]]) : []),
  ];
  return withServers(specs, async ([{ info: idp }, { info: idpAccess }, { info: peer }, ...others]) => {
    const idpMetrics = withMetrics ? others.shift()?.info : undefined;
    const hapi = others[0]?.info;
    const { summary, ratio } = await interleaved(
      [
        { name: 'idp', options: clientCredentials(idp.url + idp.paths.token) },
        { name: 'idp-access', options: clientCredentials(idpAccess.url + idpAccess.paths.token) },
        { name: 'oidc-provider', options: clientCredentials(peer.url + peer.paths.token) },
        ...(idpMetrics
          ? [{ name: 'idp-metrics', options: clientCredentials(idpMetrics.url + idpMetrics.paths.token) }]
          : []),
        ...(ceiling ? [{ name: 'hapi', options: clientCredentials(`${hapi.url}/oauth2/token`) }] : []),
      ],
      settings,
    );
    const out = [
      ...rows(`client_credentials ${alg} idp`, summary('idp'), { p99: 15 }),
      ...rows(`client_credentials ${alg} oidc-provider`, summary('oidc-provider')),
      ratioRow(`client_credentials ${alg} idp / oidc-provider`, ratio('idp', 'oidc-provider'), { min: ratioTarget }),
      ...rows(`client_credentials ${alg} idp with access`, summary('idp-access'), { p99: 15 }),
      ratioRow(`client_credentials ${alg} idp with access / oidc-provider`, ratio('idp-access', 'oidc-provider'), {
        min: ratioTarget,
      }),
    ];
    if (idpMetrics) {
      out.push(...rows(`client_credentials ${alg} idp with metrics`, summary('idp-metrics'), { p99: 15 }));
      out.push(ratioRow(`client_credentials ${alg} idp with metrics / idp`, ratio('idp-metrics', 'idp')));
      out.push(
        ratioRow(`client_credentials ${alg} idp with metrics / oidc-provider`, ratio('idp-metrics', 'oidc-provider'), {
          min: ratioTarget,
        }),
      );
    }
    if (ceiling) {
      out.push(...rows('bare hapi form route (ceiling)', summary('hapi')));
      out.push(ratioRow(`client_credentials ${alg} idp / bare hapi`, ratio('idp', 'hapi')));
      out.push(...rows('discovery idp', await load({ url: idp.url + idp.paths.discovery }, settings)));
      out.push(...rows('jwks idp', await load({ url: idp.url + idp.paths.jwks }, settings)));
    }
    return out;
  });
}

/** @param {import('./token/stateful-workloads.js').Workload} workload */
function statefulCase(workload) {
  const idps = [
    'idp-sqlite',
    'idp-sqlite-access',
    'idp-postgres',
    'idp-postgres-access',
    ...(withMetrics ? ['idp-sqlite-metrics'] : []),
  ];
  const servers = [...idps, 'oidc-provider'];
  /** @type {[string, string[]][]} */
  const specs = [
    ['idp-server.js', ['ES256', 'sqlite']],
    ['idp-server.js', ['ES256', 'sqlite', 'access']],
    ['idp-server.js', ['ES256', 'postgres']],
    ['idp-server.js', ['ES256', 'postgres', 'access']],
    ...(withMetrics ? /** @type {[string, string[]][]} */ ([['idp-server.js', ['ES256', 'sqlite', 'metrics']]]) : []),
    ['oidc-provider-server.js', ['ES256']],
  ];
  return withServers(specs, async (started) => {
    const targets = servers.map((name, i) => ({ name, ...workload.target(started[i]) }));
    for (const t of targets)
      await t.check().catch((error) => Promise.reject(new Error(`${workload.name} on ${t.name}: ${error.message}`)));
    const { summary, ratio } = await interleaved(targets, settings);
    const peerNote = [inMemoryNote, workload.peerNote].filter(Boolean).join('; ');
    return [
      ...idps.flatMap((idp) => rows(`${workload.name} ES256 ${idp}`, summary(idp), { p99: 30 })),
      ...rows(`${workload.name} ES256 oidc-provider`, summary('oidc-provider'), { note: peerNote }),
      ...idps.map((idp) =>
        ratioRow(`${workload.name} ES256 ${idp} / oidc-provider`, ratio(idp, 'oidc-provider'), {
          min: 1,
          note: workload.peerNote,
        }),
      ),
      ...(withMetrics
        ? [
            ratioRow(
              `${workload.name} ES256 idp-sqlite-metrics / idp-sqlite`,
              ratio('idp-sqlite-metrics', 'idp-sqlite'),
            ),
          ]
        : []),
    ];
  });
}

/** One case (one process, fresh servers and databases) per comparison: a failing one leaves the others' rows. */
export default {
  description:
    'client_credentials (ES256, RS256), refresh_token, userinfo, introspection on SQLite and PostgreSQL vs oidc-provider, discovery, JWKS, a bare hapi route',
  cases: [
    { name: 'client_credentials ES256', runs: 1, run: () => clientCredentialsCase('ES256', 2.5) },
    { name: 'client_credentials RS256', runs: 1, run: () => clientCredentialsCase('RS256', 1.2) },
    ...statefulWorkloads.map((workload) => ({ name: workload.name, runs: 1, run: () => statefulCase(workload) })),
  ],
};
