import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CliContext } from '../context.js';
import { CliError } from '../output.js';
import { loadCommandConfig } from '../load-command-config.js';
import { openCommandFoundation } from '../open-command-foundation.js';
import {
  createUserImport,
  hashKind,
  readAuth0Export,
  readKeycloakExport,
  type ImportEntry,
  type ImportSource,
} from '../../accounts/user-import/index.js';
import { createEventLog } from '../../events/index.js';
import { sealingKey } from '../../security/seal.js';
import { serverSecretSetting } from '../../security/resolve-server-secret.js';

export interface ImportOptions {
  config?: string;
  dryRun?: boolean;
}

const readers: Record<ImportSource, (text: string, file: string) => ImportEntry[]> = {
  keycloak: readKeycloakExport,
  auth0: readAuth0Export,
};

/**
 * `idp import keycloak|auth0 FILE…` (docs/operations.md, "Migrating from
 * Keycloak and Auth0"): straight on the database, like `idp migrate`. Every
 * file is read before the database is touched, so a malformed one is one
 * line with its location and nothing written. `--dry-run` prints the plan
 * (every user created or skipped, and why); a real run prints the skipped
 * ones and a count. Skipped users are not a failure: the exit code is 0.
 */
export async function runImport(
  ctx: CliContext,
  source: string,
  files: string[],
  opts: ImportOptions,
): Promise<number> {
  if (source !== 'keycloak' && source !== 'auth0')
    throw new CliError(`unknown import source "${source}" (expected keycloak or auth0)`, 2);
  const entries: ImportEntry[] = [];
  for (const file of files) entries.push(...(await readExport(ctx, source, file)));
  const config = await loadCommandConfig(ctx, opts.config, ['database', 'security']);
  const { storage, clock } = await openCommandFoundation(config, ctx.cwd);
  try {
    const { db, repositories } = storage;
    // The same secret serve seals with: configured, or the generated one kept in the database.
    const secret =
      config.security.secret ??
      (await repositories.settings.getOrCreate(
        db,
        serverSecretSetting,
        () => randomBytes(32).toString('base64url'),
        clock.now(),
      ));
    const userImport = createUserImport({
      db,
      transaction: (work) => storage.transaction(work),
      users: repositories.users,
      totp: repositories.totp,
      totpSecretKey: sealingKey(secret, 'totp secrets'),
      events: createEventLog({ storage, clock }),
      clock,
    });
    const dryRun = opts.dryRun === true;
    const plan = await userImport.run(entries, { source, dryRun }).catch((error: unknown) => {
      throw new CliError(`the import failed and was rolled back, nothing was imported: ${databaseReason(error)}`);
    });
    const { color } = ctx.output;
    if (dryRun)
      for (const user of plan.created)
        ctx.output.out(`${color.green('create')} ${user.email} (${user.at}): ${carried(user)}`);
    for (const refusal of plan.skipped)
      ctx.output.out(`${color.yellow('skip')}   ${refusal.email ?? '(no address)'} (${refusal.at}): ${refusal.reason}`);
    const counts = `${plan.created.length} ${plan.created.length === 1 ? 'user' : 'users'}`;
    ctx.output.out(
      dryRun
        ? `dry run: ${counts} to create, ${plan.skipped.length} skipped; nothing was written`
        : `imported ${counts} from ${source}, ${plan.skipped.length} skipped`,
    );
    return 0;
  } finally {
    await storage.close();
  }
}

async function readExport(ctx: CliContext, source: ImportSource, file: string): Promise<ImportEntry[]> {
  let text: string;
  try {
    text = await readFile(path.resolve(ctx.cwd, file), 'utf8');
  } catch (error) {
    throw new CliError(`${file}: cannot read the file (${(error as NodeJS.ErrnoException).code})`);
  }
  try {
    return readers[source](text, file);
  } catch (error) {
    // An ImportFileError: the message starts with the file and the place in it.
    throw new CliError((error as Error).message);
  }
}

/** What a created user brings, for the plan. */
function carried(user: { emailVerified: boolean; passwordHash: string | null; totpSecret: string | null }): string {
  const parts = [
    user.passwordHash === null ? 'no password (a reset gives one)' : `password ${hashKind(user.passwordHash)}`,
    user.emailVerified ? 'address verified' : 'address not verified',
  ];
  if (user.totpSecret !== null) parts.push('authenticator app');
  return parts.join(', ');
}

/**
 * The database's own words: knex puts the failed statement before them
 * (`insert into … - SQLITE_ERROR: …`), and that statement holds thousands
 * of rows with their password hashes, which have no place on a terminal.
 */
function databaseReason(error: unknown): string {
  const message = (error as Error).message.split('\n')[0];
  return message.slice(message.lastIndexOf(' - ') + 1).replace(/^- /, '');
}
