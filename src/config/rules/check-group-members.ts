import { didYouMean } from '../did-you-mean.js';
import { formatConfigPath } from '../config-path.js';
import { error, warning, type ConfigRule, type RuleProblem } from './config-rule.js';

/**
 * `groups[].members` names config users, by sub or by e-mail (compared
 * case-insensitively), as normalization resolves them: a reference to no
 * config user is an error (database users join groups through the admin
 * API, never through the file). A user named twice in one group (twice in
 * `members`, by sub and by e-mail, or in `members` and in their own
 * `users[].groups`) is a warning: it counts once, but one of the two goes
 * stale when the other is edited.
 */
export const checkGroupMembers: ConfigRule = (config) => {
  // Most files have no group: no index of 10,000 users for nothing.
  if (config.groups.length === 0) return [];
  const bySub = new Map(config.users.map((user, index) => [user.sub, index]));
  const byEmail = new Map(config.users.map((user, index) => [user.email.toLowerCase(), index]));
  const candidates = config.users.flatMap((user) => [user.sub, user.email]);
  const problems: RuleProblem[] = [];
  config.groups.forEach((group, g) => {
    const firstNamedAt = new Map<number, number>();
    group.members.forEach((reference, m) => {
      const at = ['groups', g, 'members', m];
      const user = bySub.get(reference) ?? byEmail.get(reference.toLowerCase());
      if (user === undefined) {
        problems.push(
          error(
            at,
            `is not a config user: name one by users[].sub or users[].email${didYouMean(reference, candidates)} (database users join groups through the admin API)`,
          ),
        );
        return;
      }
      const earlier = firstNamedAt.get(user);
      if (earlier !== undefined) {
        problems.push(
          warning(
            at,
            `names users[${user}] again: ${formatConfigPath(['groups', g, 'members', earlier])} already does`,
          ),
        );
        return;
      }
      firstNamedAt.set(user, m);
      const listed = config.users[user].groups.indexOf(group.id);
      if (listed !== -1) {
        problems.push(
          warning(
            at,
            `names users[${user}], who is a member already through ${formatConfigPath(['users', user, 'groups', listed])}`,
          ),
        );
      }
    });
  });
  return problems;
};
