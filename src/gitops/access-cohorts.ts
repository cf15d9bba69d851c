import type { ClientAccess, UserRole } from '../model/index.js';
import { decideAccess } from '../access/decide-access.js';

/** What decideAccess looks at of a live user: the role and the groups (`key` names the pair). */
export interface Standing {
  role: UserRole;
  groups: ReadonlySet<string>;
  key: string;
}

/** The users whose standing is the same before the apply and the same after it: one decision serves them all. */
export interface Cohort<P> {
  before: Standing;
  after: Standing;
  people: P[];
}

/** What decideAccess decides by: the second factor is asked at sign-in, never refused, so it is no part of it. */
export function ruleKey(rule: ClientAccess | null): string {
  return rule === null ? 'none' : JSON.stringify([rule.groups, rule.roles]);
}

const noGroups: ReadonlySet<string> = new Set();

/**
 * Groups people by their standing before and after. Ten thousand users
 * usually fall into a few dozen cohorts (a role and a set of groups), so
 * comparing a client's rules costs per cohort, not per user.
 */
export function cohortsOf<P extends { sub: string; roleBefore: UserRole; roleAfter: UserRole }>(
  people: Iterable<P>,
  groupsBefore: ReadonlyMap<string, ReadonlySet<string>>,
  groupsAfter: ReadonlyMap<string, ReadonlySet<string>>,
): Cohort<P>[] {
  const standings = new Map<string, Standing>();
  const standing = (role: UserRole, groups: ReadonlySet<string> = noGroups): Standing => {
    const key = `${role}\n${[...groups].sort().join(' ')}`;
    let found = standings.get(key);
    if (!found) standings.set(key, (found = { role, groups, key }));
    return found;
  };
  const cohorts = new Map<string, Cohort<P>>();
  for (const person of people) {
    const before = standing(person.roleBefore, groupsBefore.get(person.sub));
    const after = standing(person.roleAfter, groupsAfter.get(person.sub));
    const key = `${before.key}\n\n${after.key}`;
    const cohort = cohorts.get(key);
    if (cohort) cohort.people.push(person);
    else cohorts.set(key, { before, after, people: [person] });
  }
  return [...cohorts.values()];
}

/** decideAccess for live users, remembered per rule and standing. */
export function createAccessDecider(): (rule: ClientAccess | null, standing: Standing) => boolean {
  const decided = new Map<string, boolean>();
  return (rule, standing) => {
    const key = `${ruleKey(rule)}\n\n${standing.key}`;
    let allowed = decided.get(key);
    if (allowed === undefined) {
      allowed = decideAccess(rule, { role: standing.role, deletedAt: null }, standing.groups).allowed;
      decided.set(key, allowed);
    }
    return allowed;
  };
}
