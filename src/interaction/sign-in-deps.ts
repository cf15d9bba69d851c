import type { Clock } from '../clock.js';
import type { AuthConfig } from '../config/types.js';
import type { UserFactorReader } from '../accounts/login-second-factors.js';
import type { ConsentRepository, Tx } from '../storage/repositories.js';

/** What the sign-in steps read, each through one of these (src/app.ts wires them). */
export interface SignInDeps {
  clock: Clock;
  /** auth.second_factor: who must use a second factor. */
  secondFactorPolicy: AuthConfig['secondFactor'];
  /** auth.passkeys_enabled: whether registered passkeys count as factors. */
  passkeysEnabled: boolean;
  factors: UserFactorReader;
  /** Scopes the user already granted to the client (empty when none). */
  grantedScopes(sub: string, clientId: string): Promise<string[]>;
}

export function createSignInDeps(deps: {
  db: Tx;
  consents: ConsentRepository;
  factors: UserFactorReader;
  auth: Pick<AuthConfig, 'secondFactor' | 'passkeysEnabled'>;
  clock: Clock;
}): SignInDeps {
  const { db, consents, factors, auth, clock } = deps;
  return {
    clock,
    secondFactorPolicy: auth.secondFactor,
    passkeysEnabled: auth.passkeysEnabled,
    factors,
    async grantedScopes(sub, clientId) {
      return (await consents.find(db, sub, clientId))?.scopes ?? [];
    },
  };
}
