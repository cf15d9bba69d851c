import { didYouMean } from '../did-you-mean.js';
import type { ConfigPath } from '../config-path.js';
import { error, type ConfigRule, type RuleProblem } from './config-rule.js';

/**
 * Every group a user (`users[].groups`) or a client (`clients[].access.groups`, `forward_auth.apps[].access.groups`)
 * names is a group of the file: a typo would otherwise keep a user out of a
 * group, or everyone out of a client, without a word.
 */
export const checkGroupReferences: ConfigRule = (config) => {
  const ids = config.groups.map((group) => group.id);
  const known = new Set(ids);
  const problems: RuleProblem[] = [];
  const check = (id: string, path: ConfigPath) => {
    if (!known.has(id)) problems.push(error(path, `is not a group of this file (groups[].id)${didYouMean(id, ids)}`));
  };
  config.users.forEach((user, u) => {
    user.groups.forEach((id, g) => check(id, ['users', u, 'groups', g]));
  });
  config.clients.forEach((client, c) => {
    client.access?.groups?.forEach((id, g) => check(id, ['clients', c, 'access', 'groups', g]));
  });
  config.forward_auth.apps.forEach((app, a) => {
    app.access?.groups?.forEach((id, g) => check(id, ['forward_auth', 'apps', a, 'access', 'groups', g]));
  });
  return problems;
};
