import type { AccountsWiring } from '../accounts/wire-accounts.js';
import type { AreaBase } from '../area-wiring.js';
import type { EventLog } from '../events/index.js';
import type { Tx } from '../storage/repositories.js';
import { createEnrolmentService } from './enrolment-service.js';
import { createRememberedAccounts } from './remembered-accounts.js';
import { createSignInDeps } from './sign-in-deps.js';
import { createSignInService } from './sign-in-service.js';

export type InteractionWiring = ReturnType<typeof wireInteraction>;

/**
 * The interaction area: the sign-in steps and the ways of signing in that
 * run them. `services` are what the routes use (HttpDeps interaction);
 * `signInSteps` is what the authorization endpoint runs the steps with
 * (src/oidc/wire-protocol.ts).
 */
export function wireInteraction(
  base: AreaBase,
  needs: { accounts: AccountsWiring; events: EventLog; cookiePassword: string },
) {
  const { config, storage, clock } = base;
  const { accounts, events } = needs;
  const { sessions, totp, passkeys, userTerms } = accounts.services;
  const db = storage.db;
  const signInSteps = createSignInDeps({
    db,
    consents: storage.repositories.consents,
    groups: storage.repositories.groups,
    events,
    factors: accounts.factors,
    terms: userTerms,
    auth: config.auth,
    clock,
  });
  const signIn = createSignInService({
    passwords: accounts.passwords,
    sessions,
    totp,
    passkeys,
    stepDeps: signInSteps,
    events,
    db,
    transaction: <T>(work: (tx: Tx) => Promise<T>) => storage.transaction(work),
    clock,
  });
  const services = {
    signIn,
    enrolment: createEnrolmentService({ totp, passkeys, signIn }),
    rememberedAccounts: createRememberedAccounts({ sessions, cookiePassword: needs.cookiePassword }),
  };
  return { services, signInSteps };
}
