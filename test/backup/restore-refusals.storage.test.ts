import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { applyConfig } from '../../src/gitops/index.js';
import { BackupError, restoreBackup, writeBackup } from '../../src/backup/index.js';
import { systemClock } from '../../src/clock.js';
import { serverSecretSetting } from '../../src/security/index.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { testClient, testConfig, testUser } from '../support/config-fixture.js';

const secret = 'refusals-secret-refusals-secret-0123456789';

/**
 * Bad input for `idp restore`: every damaged, edited, foreign or misdirected
 * file is refused with one line naming the line it broke on, and the target
 * database is as empty afterwards as before (one transaction, rolled back).
 * The same target takes every bad file in turn: that each leaves it empty
 * is what lets the next one be tried.
 */
describe.each(databaseKinds)('restore refusals on %s', (kind) => {
  let dir: string;
  let source: TestDatabase;
  let target: TestDatabase;
  let good: string[];
  let goodFile: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-refusals-'));
    source = await createTestDatabase(kind);
    await applyConfig(
      source.storage,
      testConfig({
        database: source.config,
        users: [testUser({ sub: 'alice' }), testUser({ sub: 'bob', email: 'bob@example.com' })],
        clients: [testClient({ clientId: 'web' })],
      }),
    );
    goodFile = path.join(dir, 'good.gz');
    await writeBackup({ storage: source.storage, clock: systemClock, configuredSecret: secret }, goodFile);
    good = gunzipSync(await readFile(goodFile))
      .toString('utf8')
      .trimEnd()
      .split('\n');
    target = await createTestDatabase(kind, { migrate: false });
  });
  afterAll(async () => {
    await source?.destroy();
    await target?.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  /** The line number (from 1) of the first line matching. */
  const lineOf = (match: (line: string) => boolean) => good.findIndex(match) + 1;
  const usersLine = () => lineOf((l) => l.startsWith('{"table":"users"'));

  async function write(name: string, content: Buffer | string[]): Promise<string> {
    const file = path.join(dir, name);
    await writeFile(file, Array.isArray(content) ? gzipSync(`${content.join('\n')}\n`) : content);
    return file;
  }

  async function refused(file: string, configuredSecret: string | null = secret): Promise<string> {
    const error = await restoreBackup({ storage: target.storage, configuredSecret }, file).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BackupError);
    expect(await target.storage.snapshots.load((l) => l.nonEmptyTables())).toEqual([]);
    return (error as Error).message;
  }

  const edited = (edit: (lines: string[]) => void) => {
    const lines = [...good];
    edit(lines);
    return lines;
  };
  const header = () => JSON.parse(good[0]) as Record<string, unknown>;

  it('refuses a header that is not an idp backup, a newer format, a migration it does not know, a damaged header', async () => {
    expect(await refused(await write('empty.gz', gzipSync('')))).toBe('line 1: the file is empty');
    expect(await refused(await write('foreign.gz', ['{"hello":"world"}']))).toBe(
      'line 1: not an idp backup (its first line is not an idp-backup header)',
    );
    expect(
      await refused(
        await write(
          'newer.gz',
          edited((l) => (l[0] = JSON.stringify({ ...header(), format_version: 2 }))),
        ),
      ),
    ).toBe("line 1: the backup's format version 2 is newer than this idp reads (1): restore it with a newer idp");
    expect(
      await refused(
        await write(
          'zero.gz',
          edited((l) => (l[0] = JSON.stringify({ ...header(), format_version: 0 }))),
        ),
      ),
    ).toBe('line 1: the header has no valid format_version');
    expect(
      await refused(
        await write(
          'future.gz',
          edited((l) => (l[0] = JSON.stringify({ ...header(), migration: '9999_future.js' }))),
        ),
      ),
    ).toBe(
      'line 1: the backup is at migration 9999_future.js, which this idp does not know: restore it with the idp that made it, or a newer one',
    );
    for (const broken of [
      { engine: 'oracle' },
      { secret: null },
      { secret: { source: 'none', probe: 'x' } },
      { secret: { source: 'configured', probe: null } },
    ])
      expect(
        await refused(
          await write(
            'broken.gz',
            edited((l) => (l[0] = JSON.stringify({ ...header(), ...broken }))),
          ),
        ),
      ).toBe('line 1: the header lacks migration, engine, created_at or secret, or one is malformed');
  });

  it('refuses another secret, or none, before writing anything', async () => {
    expect(await refused(goodFile, 'another-secret-another-secret-0123456789')).toBe(
      'line 1: the backup was made with a different security.secret: restore with the security.secret of the instance that made it (nothing was written)',
    );
    expect(await refused(goodFile, null)).toBe(
      'line 1: the backup was made with security.secret set: restore with the same security.secret in the config (nothing was written)',
    );
  });

  it('refuses a truncated or damaged gzip stream with the line it was reading', async () => {
    const compressed = await readFile(goodFile);
    expect(await refused(await write('cut.gz', compressed.subarray(0, compressed.length - 40)))).toMatch(
      /^line \d+: cannot decompress: the file ends in the middle of its compressed data \(truncated\?\)$/,
    );
    const damaged = Buffer.from(compressed);
    damaged[damaged.length - 6] ^= 0xff; // the CRC-32 of the gzip trailer
    expect(await refused(await write('crc.gz', damaged))).toMatch(
      /^line \d+: cannot decompress: incorrect data check$/,
    );
    expect(await refused(path.join(dir, 'missing.gz'))).toMatch(/^cannot open the file: ENOENT/);
  });

  it('refuses a file cut at a line boundary, wrong counts and text after the end', async () => {
    expect(await refused(await write('no-end.gz', good.slice(0, -1)))).toBe(
      `line ${good.length}: the file ends before its end line (truncated?)`,
    );
    expect(
      await refused(
        await write(
          'counts.gz',
          edited((l) => (l[l.length - 1] = '{"end":{"tables":1,"rows":2}}')),
        ),
      ),
    ).toMatch(
      new RegExp(`^line ${good.length}: the end line counts 1 tables and 2 rows, the file holds \\d+ and \\d+$`),
    );
    // The same, without the newline that ends the last line.
    expect(await refused(await write('no-end-nl.gz', gzipSync(good.slice(0, -1).join('\n'))))).toBe(
      `line ${good.length}: the file ends before its end line (truncated?)`,
    );
    expect(
      await refused(
        await write(
          'null-end.gz',
          edited((l) => (l[l.length - 1] = '{"end":null}')),
        ),
      ),
    ).toMatch(new RegExp(`^line ${good.length}: the end line counts undefined tables and undefined rows`));
    expect(await refused(await write('after.gz', [...good, '["more"]']))).toBe(
      `line ${good.length + 1}: text after the end line`,
    );
  });

  it('refuses a corrupted line, a value of the wrong type and rows that do not fit their table', async () => {
    const row = usersLine() + 1;
    expect(
      await refused(
        await write(
          'corrupt.gz',
          edited((l) => (l[row - 1] = l[row - 1].slice(0, 20))),
        ),
      ),
    ).toMatch(new RegExp(`^line ${row}: not JSON \\(`));
    const typed = edited((l) => {
      const values = JSON.parse(l[row - 1]) as unknown[];
      const columns = (JSON.parse(l[row - 2]) as { columns: string[] }).columns;
      values[columns.indexOf('email_verified')] = 'yes';
      l[row - 1] = JSON.stringify(values);
    });
    expect(await refused(await write('typed.gz', typed))).toBe(
      `line ${row}: users.email_verified: expected true or false, found "yes"`,
    );
    expect(
      await refused(
        await write(
          'short.gz',
          edited((l) => (l[row - 1] = '["alice"]')),
        ),
      ),
    ).toMatch(new RegExp(`^line ${row}: 1 values for the \\d+ columns of users$`));
    expect(
      await refused(
        await write(
          'orphan.gz',
          edited((l) => l.splice(1, 0, '["x"]')),
        ),
      ),
    ).toBe('line 2: a row before any table line');
    expect(
      await refused(
        await write(
          'odd.gz',
          edited((l) => l.splice(1, 0, '"text"')),
        ),
      ),
    ).toBe('line 2: neither a row, a table line nor the end line');
  });

  it('refuses an unknown table or column, a table twice, out of order or without columns', async () => {
    const at = usersLine();
    expect(
      await refused(
        await write(
          'table.gz',
          edited((l) => l.splice(1, 0, '{"table":"widgets","columns":["id"]}')),
        ),
      ),
    ).toBe('line 2: table "widgets" does not exist in this database');
    expect(
      await refused(
        await write(
          'numbered.gz',
          edited((l) => l.splice(1, 0, '{"table":5,"columns":["id"]}')),
        ),
      ),
    ).toBe('line 2: table 5 does not exist in this database');
    expect(
      await refused(
        await write(
          'column.gz',
          edited((l) => (l[at - 1] = l[at - 1].replace('"locale"', '"nickname"'))),
        ),
      ),
    ).toBe(`line ${at}: column users.nickname does not exist in this database`);
    expect(
      await refused(
        await write(
          'twice-column.gz',
          edited((l) => (l[at - 1] = l[at - 1].replace('"locale"', '"name"'))),
        ),
      ),
    ).toBe(`line ${at}: table users names a column twice`);
    expect(
      await refused(
        await write(
          'no-columns.gz',
          edited((l) => (l[at - 1] = '{"table":"users"}')),
        ),
      ),
    ).toBe(`line ${at}: table users has no list of columns`);
    const settings = lineOf((l) => l.startsWith('{"table":"settings"'));
    expect(
      await refused(
        await write(
          'twice.gz',
          edited((l) => l.splice(settings, 0, l[settings - 1])),
        ),
      ),
    ).toBe(`line ${settings + 1}: table settings appears twice`);
    const consents = lineOf((l) => l.startsWith('{"table":"consents"'));
    expect(
      await refused(
        await write(
          'order.gz',
          edited((l) => l.splice(1, 0, l[consents - 1])),
        ),
      ),
    ).toBe('line 2: table consents comes before clients, which it references');
  });

  it('names the one line of a one-row batch the database refuses', async () => {
    // The one client, without its name (NOT NULL).
    const row = lineOf((l) => l.startsWith('{"table":"clients"')) + 1;
    const nameless = edited((l) => {
      const values = JSON.parse(l[row - 1]) as unknown[];
      values[(JSON.parse(l[row - 2]) as { columns: string[] }).columns.indexOf('name')] = null;
      l[row - 1] = JSON.stringify(values);
    });
    expect(await refused(await write('nameless.gz', nameless))).toMatch(
      new RegExp(`^line ${row} \\(table clients\\): the database refused the rows: .*(NOT NULL|not-null)`),
    );
  });

  it('rolls back the rows already inserted when the database refuses a batch', async () => {
    // A second copy of Alice: her primary key is taken by the first, after clients and settings went in.
    const row = usersLine() + 1;
    const file = await write(
      'duplicate.gz',
      edited((l) => l.splice(row, 0, l[row - 1])),
    );
    expect(await refused(file)).toMatch(
      new RegExp(`^lines ${row}-\\d+ \\(table users\\): the database refused the rows: .*(UNIQUE|duplicate key)`),
    );
  });

  it('restores into an empty database, then refuses it as not empty, and refuses a database past the backup', async () => {
    const summary = await restoreBackup({ storage: target.storage, configuredSecret: secret }, goodFile);
    expect(summary.rows).toBe(good.filter((l) => l.startsWith('[')).length);
    const message = await restoreBackup({ storage: target.storage, configuredSecret: secret }, goodFile).then(
      () => '',
      (e: unknown) => (e as Error).message,
    );
    expect(message).toBe(
      'the database is not empty (rows in clients, users, events, settings): restore into a new, empty database',
    );

    const older = await write(
      'older.gz',
      edited((l) => (l[0] = JSON.stringify({ ...header(), migration: '0026_pushed_authorization_requests.js' }))),
    );
    const past = await restoreBackup({ storage: target.storage, configuredSecret: secret }, older).then(
      () => '',
      (e: unknown) => (e as Error).message,
    );
    expect(past).toMatch(
      /^the database is at migration \d{4}_\S+, past the backup's 0026_pushed_authorization_requests.js: restore into a new, empty database$/,
    );
  });

  it('carries the generated secret of an instance without security.secret, and checks it', async () => {
    const generated = await createTestDatabase(kind);
    const empty = await createTestDatabase(kind, { migrate: false });
    try {
      const none = path.join(dir, 'none.gz');
      await writeBackup({ storage: generated.storage, clock: systemClock, configuredSecret: null }, none);
      expect(
        JSON.parse(
          gunzipSync(await readFile(none))
            .toString('utf8')
            .split('\n')[0],
        ),
      ).toMatchObject({
        secret: { source: 'none', probe: null },
      });

      await generated.storage.repositories.settings.set(generated.tx, serverSecretSetting, 'generated-0123456789', 1);
      const file = path.join(dir, 'generated.gz');
      await writeBackup({ storage: generated.storage, clock: systemClock, configuredSecret: null }, file);
      const lines = gunzipSync(await readFile(file))
        .toString('utf8')
        .trimEnd()
        .split('\n');
      expect(JSON.parse(lines[0])).toMatchObject({ secret: { source: 'generated' } });

      const withSecret = await restoreBackup({ storage: empty.storage, configuredSecret: secret }, file).then(
        () => '',
        (e: unknown) => (e as Error).message,
      );
      expect(withSecret).toBe(
        'line 1: the backup was made without security.secret (its generated secret travels in the file): restore with security.secret unset (nothing was written)',
      );
      const swapped = path.join(dir, 'swapped.gz');
      await writeFile(
        swapped,
        gzipSync(`${lines.map((l) => l.replace('generated-0123456789', 'another-0123456789')).join('\n')}\n`),
      );
      const edited = await restoreBackup({ storage: empty.storage, configuredSecret: null }, swapped).then(
        () => '',
        (e: unknown) => (e as Error).message,
      );
      expect(edited).toBe(
        "the generated secret in the backup's settings does not open its secret probe: the file was edited or damaged",
      );
      expect(await empty.storage.snapshots.load((l) => l.nonEmptyTables())).toEqual([]);

      await restoreBackup({ storage: empty.storage, configuredSecret: null }, file);
      expect(await empty.storage.repositories.settings.get(empty.tx, serverSecretSetting)).toBe('generated-0123456789');

      // Nothing was sealed: any secret, or none, restores it.
      const third = await createTestDatabase(kind, { migrate: false });
      try {
        expect((await restoreBackup({ storage: third.storage, configuredSecret: secret }, none)).header.secret).toEqual(
          {
            source: 'none',
            probe: null,
          },
        );
      } finally {
        await third.destroy();
      }
    } finally {
      await generated.destroy();
      await empty.destroy();
    }
  });
});
