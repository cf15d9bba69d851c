import type { Clock } from '../clock.js';
import type { AuthConfig } from '../config/types.js';
import type { UserFactorReader } from '../accounts/login-second-factors.js';
import type { UserTerms } from '../accounts/user-terms.js';
import type { EventLog } from '../events/index.js';
import type { ConsentRepository, GroupRepository, Tx } from '../storage/repositories.js';

/** What the sign-in steps read, each through one of these (./wire-interaction.ts wires them). */
export interface SignInDeps {
  clock: Clock;
  /** auth.second_factor: who must use a second factor. */
  secondFactorPolicy: AuthConfig['secondFactor'];
  /** auth.passkeys_enabled: whether registered passkeys count as factors. */
  passkeysEnabled: boolean;
  factors: UserFactorReader;
  /** Scopes the user already granted to the client (empty when none). */
  grantedScopes(sub: string, clientId: string): Promise<string[]>;
  /** The ids of the groups the user is in (any source): the access step decides with them. */
  groupsOf(sub: string): Promise<readonly string[]>;
  /** Records the event `access.denied`: the access step refused the user this client. */
  recordAccessDenied(sub: string, clientId: string): Promise<void>;
  /** The terms the user has not accepted at their current version, and accepting them. */
  terms: {
    outstanding: UserTerms['outstanding'];
    accept(
      sub: string,
      terms: { id: string; version: string }[],
      context: { clientAddress: string | null },
    ): Promise<unknown>;
  };
}

export function createSignInDeps(deps: {
  db: Tx;
  consents: ConsentRepository;
  groups: GroupRepository;
  events: EventLog;
  factors: UserFactorReader;
  terms: UserTerms;
  auth: Pick<AuthConfig, 'secondFactor' | 'passkeysEnabled'>;
  clock: Clock;
}): SignInDeps {
  const { db, consents, groups, events, factors, terms, auth, clock } = deps;
  return {
    clock,
    // Read through: a config reload changes auth.second_factor in place.
    get secondFactorPolicy() {
      return auth.secondFactor;
    },
    // Read through as well: auth.passkeys_enabled decides whether passkeys count as factors.
    get passkeysEnabled() {
      return auth.passkeysEnabled;
    },
    factors,
    terms,
    async grantedScopes(sub, clientId) {
      return (await consents.find(db, sub, clientId))?.scopes ?? [];
    },
    async groupsOf(sub) {
      return [...new Set((await groups.membershipsOf(db, [sub])).map((m) => m.groupId))];
    },
    async recordAccessDenied(sub, clientId) {
      // Alone, outside any transaction: nothing else is written with it.
      await events.record(db, { type: 'access.denied', actor: sub, subject: sub, clientId });
    },
  };
}
