import type { GroupRecord, UpstreamGroupRule } from '../model/index.js';
import type { UpstreamAssertion } from './upstream-identity.js';

/** One `upstream` entry of a group, for the provider it names. */
export interface GroupRule {
  groupId: string;
  rule: UpstreamGroupRule;
}

/** What a provider's rules need from its sign-in beyond the identity. */
export interface UpstreamWants {
  /** The claims the rules read: an OpenID sign-in reads userinfo for those its ID token lacks. */
  claims: string[];
  /** Some rule names a GitHub team: the sign-in reads the user's teams. */
  teams: boolean;
}

export const nothingWanted: UpstreamWants = { claims: [], teams: false };

/** The `upstream` entries of every group that name this provider. */
export function groupRulesOf(groups: readonly GroupRecord[], providerId: string): GroupRule[] {
  return groups.flatMap((group) =>
    group.upstream.filter((rule) => rule.provider === providerId).map((rule) => ({ groupId: group.id, rule })),
  );
}

export function wantsOf(rules: readonly GroupRule[]): UpstreamWants {
  const claims = new Set<string>();
  let teams = false;
  for (const { rule } of rules) {
    if ('team' in rule) teams = true;
    else claims.add(rule.claim);
  }
  return { claims: [...claims].sort(), teams };
}

/**
 * The strings of a claim: a string is one value, an array gives its
 * strings; anything else (a number, an object, null, the non-strings of an
 * array) asserts nothing. Upstreams are not ours to validate: what does not
 * match is ignored, never an error.
 */
function claimValues(claims: UpstreamAssertion['claims'], name: string): Set<string> {
  // Own properties only: a claim named `constructor` is not Object's.
  const value = Object.hasOwn(claims, name) ? claims[name] : undefined;
  if (typeof value === 'string') return new Set([value]);
  if (Array.isArray(value)) return new Set(value.filter((item): item is string => typeof item === 'string'));
  return new Set();
}

/**
 * The groups an upstream puts the user in, sorted: a claim rule matches when
 * the claim is its value or an array holding it (compared exactly); a team
 * rule when the user is in `org/slug` (case-insensitively, as GitHub
 * compares both). Each claim is read once, so a claim of 10,000 values
 * costs one pass however many rules read it.
 */
export function matchUpstreamGroups(rules: readonly GroupRule[], assertion: UpstreamAssertion): string[] {
  const values = new Map<string, Set<string>>();
  const valuesOf = (name: string) => {
    let found = values.get(name);
    if (!found) values.set(name, (found = claimValues(assertion.claims, name)));
    return found;
  };
  const teams = new Set(assertion.teams);
  const matched = new Set<string>();
  for (const { groupId, rule } of rules) {
    const holds = 'team' in rule ? teams.has(rule.team.toLowerCase()) : valuesOf(rule.claim).has(rule.value);
    if (holds) matched.add(groupId);
  }
  return [...matched].sort();
}
