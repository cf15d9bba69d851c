import { didYouMean } from '../did-you-mean.js';
import { formatConfigPath, type ConfigPath } from '../config-path.js';
import type { UpstreamGroupRuleFile } from '../file-types.js';
import { defaultProviderScopes } from '../normalize-config.js';
import { error, type ConfigRule, type RuleProblem } from './config-rule.js';

/**
 * Which upstream can assert which membership (`groups[].upstream`):
 * - `{ provider, claim, value }`: a claim of the ID token or userinfo of an
 *   OpenID Connect or generic upstream (google, apple, generic_oauth);
 * - `{ provider, team }`: a team of a github upstream, which GitHub shows
 *   only to a token with the scope read:org (one error per provider, naming
 *   the first rule that needs it).
 */
export const checkGroupUpstream: ConfigRule = (config) => {
  const providers = config.identity_providers;
  const ids = providers.map((provider) => provider.id);
  const problems: RuleProblem[] = [];
  const needsReadOrg = new Map<number, ConfigPath>();
  config.groups.forEach((group, g) => {
    group.upstream.forEach((rule, r) => {
      if (!isReadable(rule)) return;
      const at = ['groups', g, 'upstream', r];
      const index = ids.indexOf(rule.provider);
      if (index === -1) {
        problems.push(
          error(
            [...at, 'provider'],
            `is not an identity provider of this file (identity_providers[].id)${didYouMean(rule.provider, ids)}`,
          ),
        );
        return;
      }
      const type = providers[index].type;
      if ('team' in rule) {
        if (type !== 'github') {
          problems.push(
            error(
              [...at, 'team'],
              `a team needs a github provider, and identity_providers[${index}] is of type ${type}: map one of its claims with { provider, claim, value }`,
            ),
          );
        } else if (!(providers[index].scopes ?? defaultProviderScopes.github).includes('read:org')) {
          if (!needsReadOrg.has(index)) needsReadOrg.set(index, at);
        }
      } else if (type === 'github') {
        problems.push(
          error(
            [...at, 'claim'],
            `identity_providers[${index}] is of type github, which asserts teams, not claims: map a team with { provider, team: org/team-slug }`,
          ),
        );
      }
    });
  });
  for (const [index, rule] of needsReadOrg) {
    const scopes = providers[index].scopes;
    const defaults = defaultProviderScopes.github;
    const reason = `read:org, which ${formatConfigPath(rule)} needs: GitHub shows team membership only with read:org`;
    problems.push(
      scopes
        ? error(['identity_providers', index, 'scopes'], `lacks ${reason}`)
        : error(
            ['identity_providers', index],
            `its default scopes (${defaults.join(', ')}) lack ${reason}; set scopes: [${[...defaults, 'read:org'].join(', ')}]`,
          ),
    );
  }
  return problems;
};

/**
 * Rules also run on a file that failed the shape check (./index.ts), where an
 * entry may be a number or lack its provider: the shape problem explains it,
 * and the other entries are still checked.
 */
function isReadable(rule: unknown): rule is UpstreamGroupRuleFile {
  return typeof rule === 'object' && rule !== null && typeof (rule as { provider?: unknown }).provider === 'string';
}
