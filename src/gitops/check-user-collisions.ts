import type { UserConfig } from '../config/types.js';
import type { Tx } from '../storage/repositories.js';
import type { ApplyConflict } from './apply-conflict-error.js';
import type { GitopsStore } from './gitops-store.js';

/**
 * docs/gitops.md, "Apply semantics": a config user whose sub or e-mail is held by a
 * database-managed user cannot be applied, nor one whose sub belonged to
 * an erased user (a sub is never given twice: relying parties key on it).
 * Returns one line per collision, naming the config side (`users[3]`) and
 * the database user (sub and e-mail). Reads in batches: two queries per
 * thousand config users, and one for the new subs.
 */
export async function checkUserCollisions(tx: Tx, users: UserConfig[], store: GitopsStore): Promise<ApplyConflict[]> {
  const problems: ApplyConflict[] = [];
  const [bySub, byEmail] = [
    await store.users.findBySubs(
      tx,
      users.map((u) => u.sub),
    ),
    await store.users.findLiveByEmails(
      tx,
      users.map((u) => u.email),
    ),
  ];
  // Only a sub without a row can be a tombstone: a steady apply asks nothing more.
  const stored = new Set(bySub.map((u) => u.sub));
  const erased = new Set(
    await store.users.findErasedSubs(
      tx,
      users.map((u) => u.sub).filter((sub) => !stored.has(sub)),
    ),
  );
  const dbSubs = new Map(bySub.filter((u) => u.managedBy === 'database').map((u) => [u.sub, u]));
  const dbEmails = new Map(byEmail.filter((u) => u.managedBy === 'database').map((u) => [u.email.toLowerCase(), u]));
  users.forEach((user, index) => {
    const sameSub = dbSubs.get(user.sub);
    if (sameSub) {
      problems.push({
        path: ['users', index],
        message: `sub "${user.sub}" is already taken by database-managed user "${sameSub.sub}" <${sameSub.email}>`,
      });
    }
    if (erased.has(user.sub)) {
      problems.push({
        path: ['users', index],
        message: `sub "${user.sub}" belonged to an erased user and is never given again`,
      });
    }
    const sameEmail = dbEmails.get(user.email.toLowerCase());
    if (sameEmail) {
      problems.push({
        path: ['users', index],
        message: `e-mail "${user.email}" is already used by database-managed user "${sameEmail.sub}" <${sameEmail.email}>`,
      });
    }
  });
  return problems;
}
