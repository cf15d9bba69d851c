import { pino } from 'pino';
import { createApp } from '../../../src/app.js';
import type { Config } from '../../../src/config/types.js';
import { applyConfig } from '../../../src/gitops/index.js';
import { createTestDatabase, type DatabaseKind } from '../../support/databases.js';
import { testConfig } from '../../support/config-fixture.js';
import { freePort, type RunningIdp } from '../../e2e/support/start-idp.js';

/**
 * The real server on 127.0.0.1 after `idp apply` (like test/e2e's startIdp).
 * `overrides` gets idp's URL before the server starts, so that upstreams
 * started there can know idp's callback URLs. Upstream calls get a short limit on upstream calls so that a hanging upstream fails a
 * test in a second, not ten.
 */
export async function startIdpWithUpstreams(
  kind: DatabaseKind,
  overrides: (url: string) => Promise<Partial<Config>> | Partial<Config>,
  options: { upstreamTimeoutMs?: number } = {},
): Promise<RunningIdp> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const database = await createTestDatabase(kind);
  const config = testConfig({
    server: { baseUrl: url, baseUrlDerived: false, host: '127.0.0.1', port, trustProxy: false },
    database: database.config,
    logging: { level: (process.env.IDP_TEST_LOG_LEVEL ?? 'silent') as Config['logging']['level'], format: 'json' },
    ...(await overrides(url)),
  });
  await applyConfig(database.storage, config);
  const app = await createApp(config, {
    storage: database.storage,
    logger: pino({ level: config.logging.level }),
    upstreamTimeoutMs: options.upstreamTimeoutMs ?? 1000,
  });
  await app.start();
  return {
    url,
    app,
    database,
    config,
    async stop() {
      await app.stop({ timeoutMs: 1000 });
      await database.destroy();
    },
  };
}
