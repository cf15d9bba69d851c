import knexFactory from 'knex';
import { postgresAdminUrl } from './databases.js';

/**
 * PostgreSQL must be reachable: storage tests run on both engines, and a
 * missing server is a failure, never a silent skip.
 */
export default async function setup(): Promise<void> {
  const db = knexFactory({ client: 'pg', connection: postgresAdminUrl, pool: { min: 0, max: 1 } });
  try {
    await db.raw('SELECT 1');
    const leftovers = await db.raw(`SELECT datname FROM pg_database WHERE datname LIKE 'idp\\_test\\_%'`);
    for (const row of leftovers.rows as { datname: string }[]) {
      // Only databases of test processes that have died: another run may be using the rest.
      const pid = Number(row.datname.split('_')[2]);
      if (!isAlive(pid)) await db.raw(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
    }
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${postgresAdminUrl}: ${(error as Error).message}. Start it (see .ci/run) or set IDP_TEST_PG_URL.`,
      { cause: error },
    );
  } finally {
    await db.destroy();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
