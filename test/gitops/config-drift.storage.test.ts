import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { applyConfig, checkConfigDrift, readConfigDrift } from '../../src/gitops/index.js';
import { knexSettingsRepository } from '../../src/storage/knex/settings.js';
import { testConfig, testUser } from '../support/config-fixture.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { seedUser } from '../support/test-app.js';

/** docs/operations.md, "Metrics" (Drift): what checkConfigDrift records, and what readConfigDrift reads back. */
describe.each(databaseKinds)('config drift on %s', (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.destroy();
    database = undefined;
  });

  it('reads nothing before the first check and apply', async () => {
    database = await createTestDatabase(kind);
    expect(await readConfigDrift(database.tx, knexSettingsRepository)).toEqual({
      drift: null,
      changes: null,
      checkedAt: null,
      appliedAt: null,
    });
  });

  it('counts the changes an apply would make, and none once applied', async () => {
    database = await createTestDatabase(kind);
    const config = testConfig({ users: [testUser({ sub: 'ada', email: 'ada@example.com' })] });
    expect(await checkConfigDrift(database.storage, config, systemClock)).toBe(1);
    const drifted = await readConfigDrift(database.tx, knexSettingsRepository);
    expect(drifted).toMatchObject({ drift: true, appliedAt: null });
    expect(Math.abs(drifted.checkedAt! - Date.now())).toBeLessThan(60_000);
    await applyConfig(database.storage, config);
    expect(await checkConfigDrift(database.storage, config, systemClock)).toBe(0);
    expect(await readConfigDrift(database.tx, knexSettingsRepository)).toMatchObject({ drift: false });
  });

  it('records a collision with a database-managed user as drift (-1): apply would refuse the file', async () => {
    database = await createTestDatabase(kind);
    await seedUser({ database }, { sub: 'db-ada', email: 'ada@example.com' });
    const config = testConfig({ users: [testUser({ sub: 'ada', email: 'ada@example.com' })] });
    expect(await checkConfigDrift(database.storage, config, systemClock)).toBe(-1);
    expect(await readConfigDrift(database.tx, knexSettingsRepository)).toMatchObject({ drift: true });
  });

  it('fails, recording nothing, when the database does not answer', async () => {
    database = await createTestDatabase(kind);
    await database.db.destroy();
    await expect(checkConfigDrift(database.storage, testConfig(), systemClock)).rejects.toThrow();
  });
});
