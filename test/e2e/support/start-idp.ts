import net from 'node:net';
import { createApp, type App, type AppOptions } from '../../../src/app.js';
import type { Config } from '../../../src/config/types.js';
import { applyConfig } from '../../../src/gitops/index.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from '../../support/databases.js';
import { testConfig } from '../../support/config-fixture.js';

export interface RunningIdp {
  /** The base URL, which is also the issuer. */
  url: string;
  app: App;
  database: TestDatabase;
  config: Config;
  stop(): Promise<void>;
}

/** A free port on 127.0.0.1: the issuer must be known before the server starts. */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * The real server (createApp) on 127.0.0.1 with a fresh database of the
 * given kind, after `idp apply` of the config's users and clients. With
 * `hostname: 'localhost'` the base URL (and issuer) names localhost, still
 * served on 127.0.0.1: browsers refuse WebAuthn on an IP address (docs/http-api.md, "Second factors").
 */
export async function startIdp(
  kind: DatabaseKind,
  overrides: Partial<Config> = {},
  options: { hostname?: 'localhost'; app?: Omit<AppOptions, 'storage'> } = {},
): Promise<RunningIdp> {
  const port = await freePort();
  const url = `http://${options.hostname ?? '127.0.0.1'}:${port}`;
  const database = await createTestDatabase(kind);
  const config = testConfig({
    server: { baseUrl: url, baseUrlDerived: false, host: '127.0.0.1', port, trustProxy: false },
    database: database.config,
    logging: { level: (process.env.IDP_TEST_LOG_LEVEL ?? 'silent') as Config['logging']['level'], format: 'json' },
    ...overrides,
  });
  await applyConfig(database.storage, config);
  const app = await createApp(config, { ...options.app, storage: database.storage });
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
