import type { Clock } from '../../clock.js';
import type { EventLog } from '../../events/index.js';
import type { TotpCredentialRecord, UserRecord } from '../../model/index.js';
import { seal } from '../../security/index.js';
import type { TotpRepository, Tx, UserRepository } from '../../storage/repositories.js';
import { newDatabaseUser } from '../new-user.js';
import type { ImportedUser, ImportEntry, ImportRefusal } from './imported-user.js';

/**
 * `idp import` (docs/operations.md, "Migrating from Keycloak and Auth0"):
 * the users an export file brings become database-managed users, as the
 * admin API creates them (role user, a new sub, no e-mail verification
 * demanded beyond what the export says), with the hashes copied (never
 * computed here: 100k users import in seconds) and TOTP secrets sealed as
 * the app seals its own. Whom the file gives twice, and whom the database
 * holds already (a live user with the address, any case), is reported and
 * skipped. Everything is one transaction: a database error leaves nothing.
 */
export type ImportSource = 'keycloak' | 'auth0';

export interface ImportPlan {
  created: ImportedUser[];
  skipped: ImportRefusal[];
}

export interface UserImport {
  /** The plan, and (unless dryRun) the users written, in one transaction. */
  run(entries: readonly ImportEntry[], options: { source: ImportSource; dryRun: boolean }): Promise<ImportPlan>;
}

export function createUserImport(deps: {
  db: Tx;
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  users: UserRepository;
  totp: TotpRepository;
  /** Seals TOTP secrets (sealingKey(secret, 'totp secrets'), as src/accounts/totp-service.ts). */
  totpSecretKey: Buffer;
  events: EventLog;
  clock: Clock;
}): UserImport {
  const plan = async (tx: Tx, entries: readonly ImportEntry[]) => {
    const refusals = new Map<number, ImportRefusal>();
    const byEmail = new Map<string, number[]>();
    entries.forEach((entry, index) => {
      if ('refusal' in entry) refusals.set(index, entry.refusal);
      else byEmail.set(entry.user.email.toLowerCase(), [...(byEmail.get(entry.user.email.toLowerCase()) ?? []), index]);
    });
    const users = (index: number) => (entries[index] as { user: ImportedUser }).user;
    // Neither of two entries with one address is the obvious one: both wait for the operator.
    for (const indexes of byEmail.values())
      if (indexes.length > 1)
        for (const index of indexes) {
          const others = indexes.filter((other) => other !== index).map((other) => users(other).at);
          refusals.set(index, {
            at: users(index).at,
            email: users(index).email,
            reason: `the address is also at ${others.join(', ')}`,
          });
        }
    const held = await deps.users.findLiveByEmails(tx, [...byEmail.keys()]);
    const taken = new Set(held.map((user) => user.email.toLowerCase()));
    const created: ImportedUser[] = [];
    entries.forEach((_, index) => {
      if (refusals.has(index)) return;
      const user = users(index);
      if (taken.has(user.email.toLowerCase()))
        refusals.set(index, { at: user.at, email: user.email, reason: 'an account with this address exists already' });
      else created.push(user);
    });
    const skipped = [...refusals.entries()].sort(([a], [b]) => a - b).map(([, refusal]) => refusal);
    return { created, skipped };
  };

  const write = async (tx: Tx, created: ImportedUser[], source: ImportSource) => {
    const now = deps.clock.now();
    const records: UserRecord[] = [];
    const totps: TotpCredentialRecord[] = [];
    for (const user of created) {
      const record = {
        ...newDatabaseUser(
          {
            email: user.email,
            role: 'user',
            emailVerified: user.emailVerified,
            emailVerificationRequired: false,
            passwordHash: user.passwordHash,
          },
          now,
        ),
        name: user.name,
        givenName: user.givenName,
        familyName: user.familyName,
      };
      records.push(record);
      if (user.totpSecret !== null)
        totps.push({
          sub: record.sub,
          sealedSecret: seal(Buffer.from(user.totpSecret), deps.totpSecretKey, record.sub),
          confirmedAt: now,
          lastUsedStep: null,
          createdAt: now,
        });
    }
    await deps.users.insertMany(tx, records);
    await deps.totp.insertMany(tx, totps);
    await deps.events.recordMany(
      tx,
      records.map((record, index) => ({
        type: 'user.imported' as const,
        actor: 'import',
        subject: record.sub,
        detail: { source, password: hashKind(record.passwordHash), totp: created[index].totpSecret !== null },
      })),
    );
  };

  return {
    async run(entries, { source, dryRun }) {
      if (dryRun) return plan(deps.db, entries);
      return deps.transaction(async (tx) => {
        const planned = await plan(tx, entries);
        await write(tx, planned.created, source);
        return planned;
      });
    },
  };
}

/** The algorithm of a stored hash, for the event and the plan (never the hash). */
export function hashKind(hash: string | null): string | null {
  if (hash === null) return null;
  const kind = hash.split('$')[1];
  return kind.startsWith('2') ? 'bcrypt' : kind;
}
