import type { GrantRevoker, Tx } from '../storage/repositories.js';
import type { GitopsStore } from './gitops-store.js';
import type { ChangeKind, PlanWrites } from './plan.js';

export interface ApplyProgress {
  kind: ChangeKind;
  done: number;
  total: number;
}

/** Rows per insert statement and per progress report. */
const BATCH_SIZE = 1000;
/** Ids per batched revocation (GrantRevoker.revokeUsers / revokeClients). */
const REVOKE_BATCH_SIZE = 400;

/**
 * Writes a plan inside apply's transaction. Removals run first, so that a
 * removed user's e-mail is free for a new or renamed one; grants of removed
 * users and clients are revoked by every registered GrantRevoker, and so
 * are the grants users who stay gave a client they lose. Memberships are
 * written after the users and groups they refer to.
 */
export async function writePlan(
  tx: Tx,
  writes: PlanWrites,
  now: number,
  store: GitopsStore,
  onProgress: (progress: ApplyProgress) => void,
): Promise<void> {
  await writeIdentityProviders(tx, writes.identityProviders, now, store);
  await writeClients(tx, writes.clients, now, store, onProgress);
  await writeUsers(tx, writes.users, now, store, onProgress);
  await writeGroups(tx, writes, now, store);
  await revokeLostAccess(tx, store.revokers, writes.revocations);
  await writeTerms(tx, writes.terms, now, store);
}

async function writeGroups(tx: Tx, writes: PlanWrites, now: number, store: GitopsStore): Promise<void> {
  await store.groups.removeMemberships(tx, writes.memberships.remove);
  for (const id of writes.groups.remove) await store.groups.delete(tx, id);
  for (const group of writes.groups.save) await store.groups.save(tx, { ...group, createdAt: now, updatedAt: now });
  await store.groups.addMemberships(tx, writes.memberships.add, now);
}

/** Every revoker, for each client some users lose: their grants for that client only, 400 subs at a time. */
async function revokeLostAccess(tx: Tx, revokers: GrantRevoker[], revocations: PlanWrites['revocations']) {
  for (const { clientId, subs } of revocations)
    for (const revoker of revokers)
      for (let i = 0; i < subs.length; i += REVOKE_BATCH_SIZE)
        await revoker.revokeUsersOfClient(tx, clientId, subs.slice(i, i + REVOKE_BATCH_SIZE));
}

async function writeIdentityProviders(
  tx: Tx,
  writes: PlanWrites['identityProviders'],
  now: number,
  store: GitopsStore,
): Promise<void> {
  for (const id of writes.remove) await store.identityProviders.delete(tx, id);
  for (const provider of writes.save)
    await store.identityProviders.save(tx, { ...provider, createdAt: now, updatedAt: now });
}

async function writeTerms(tx: Tx, writes: PlanWrites['terms'], now: number, store: GitopsStore): Promise<void> {
  for (const id of writes.remove) await store.terms.delete(tx, id);
  for (const term of writes.save) await store.terms.save(tx, { ...term, createdAt: now, updatedAt: now });
}

async function writeClients(
  tx: Tx,
  writes: PlanWrites['clients'],
  now: number,
  store: GitopsStore,
  onProgress: (progress: ApplyProgress) => void,
): Promise<void> {
  await revokeAll(tx, store.revokers, writes.remove, 'client');
  await store.clients.deleteMany(tx, writes.remove);
  for (const { clientId, changes } of writes.update)
    await store.clients.update(tx, clientId, { ...changes, updatedAt: now });
  const total = writes.create.length;
  for (let done = 0; done < total;) {
    const batch = writes.create.slice(done, done + BATCH_SIZE);
    await store.clients.insertMany(
      tx,
      batch.map((client) => ({ ...client, createdAt: now, updatedAt: now })),
    );
    done += batch.length;
    onProgress({ kind: 'client', done, total });
  }
}

async function writeUsers(
  tx: Tx,
  writes: PlanWrites['users'],
  now: number,
  store: GitopsStore,
  onProgress: (progress: ApplyProgress) => void,
): Promise<void> {
  await store.users.updateMany(tx, writes.remove, { deletedAt: now, updatedAt: now });
  for (let i = 0; i < writes.remove.length; i += REVOKE_BATCH_SIZE)
    await store.sessionEnd.allOf(tx, writes.remove.slice(i, i + REVOKE_BATCH_SIZE));
  await revokeAll(tx, store.revokers, writes.remove, 'user');
  await releaseTakenEmails(tx, writes.update, store);
  for (const { subs, changes } of groupByChanges(writes.update)) {
    if (subs.length === 1) await store.users.update(tx, subs[0], { ...changes, updatedAt: now });
    else await store.users.updateMany(tx, subs, { ...changes, updatedAt: now });
  }
  const total = writes.create.length;
  for (let done = 0; done < total;) {
    const batch = writes.create.slice(done, done + BATCH_SIZE);
    await store.users.insertMany(
      tx,
      batch.map((user) => ({ ...user, deletedAt: null, createdAt: now, updatedAt: now })),
    );
    done += batch.length;
    onProgress({ kind: 'user', done, total });
  }
}

/**
 * Live e-mails are unique. When one config user takes an e-mail another one
 * gives up in the same apply (a swap, or a restored user), the giver first
 * parks its row on a placeholder that no real address can equal (no `@`,
 * a space), so that no intermediate state breaks the index.
 */
async function releaseTakenEmails(tx: Tx, updates: PlanWrites['users']['update'], store: GitopsStore): Promise<void> {
  const taken = new Set<string>();
  for (const update of updates) {
    if (update.changes.email !== undefined) taken.add(update.changes.email.toLowerCase());
    else if (update.wasDeleted) taken.add(update.currentEmail.toLowerCase());
  }
  for (const update of updates) {
    const givesUp = update.changes.email !== undefined && !update.wasDeleted;
    if (givesUp && taken.has(update.currentEmail.toLowerCase())) {
      await store.users.update(tx, update.sub, { email: `(moving) ${update.sub}` });
    }
  }
}

/**
 * Users whose changes are identical (a restore, a role flip for many) are
 * updated by one batched statement instead of one statement each.
 */
function groupByChanges(
  updates: PlanWrites['users']['update'],
): { subs: string[]; changes: PlanWrites['users']['update'][number]['changes'] }[] {
  const groups = new Map<string, { subs: string[]; changes: PlanWrites['users']['update'][number]['changes'] }>();
  for (const { sub, changes } of updates) {
    const key = JSON.stringify(changes);
    const group = groups.get(key);
    if (group) group.subs.push(sub);
    else groups.set(key, { subs: [sub], changes });
  }
  return [...groups.values()];
}

/** Every revoker, for every removed id: in batches when the revoker can, else one by one. */
async function revokeAll(tx: Tx, revokers: GrantRevoker[], ids: string[], kind: 'user' | 'client'): Promise<void> {
  for (const revoker of revokers) {
    const batch = kind === 'user' ? revoker.revokeUsers?.bind(revoker) : revoker.revokeClients?.bind(revoker);
    if (batch) {
      for (let i = 0; i < ids.length; i += REVOKE_BATCH_SIZE) await batch(tx, ids.slice(i, i + REVOKE_BATCH_SIZE));
      continue;
    }
    for (const id of ids) await (kind === 'user' ? revoker.revokeUser(tx, id) : revoker.revokeClient(tx, id));
  }
}
