import type { UserRecord } from '../model/index.js';
import type { ReadAuthorizationRequest } from './consent-service.js';
import { authorizeReturnTo, interactionParams } from './interaction-location.js';
import { isSafeReturnTo } from './return-to.js';
import type { SignInDeps } from './sign-in-deps.js';
import { mayUse } from './steps/access.js';

export interface AccessDenialPrompt {
  clientName: string;
  /** The user may use the client after all (a membership added since): the page goes back to the request. */
  allowed: boolean;
  /** "Back to {client}": the request again with access_denied=true, which the access step ends with access_denied. */
  backTo: string;
}

/**
 * The page of the access step (./steps/access.ts), /access-denied: what it
 * shows the signed-in user for the authorization request behind return_to.
 * "Use another account" needs nothing of it: it is the sign-in page with
 * the remembered accounts, back to the same return_to.
 */
export interface AccessDenial {
  /** Null when return_to is no valid authorization request (any more). */
  describe(returnTo: unknown, user: UserRecord): Promise<AccessDenialPrompt | null>;
}

export function createAccessDenial(deps: {
  readRequest: ReadAuthorizationRequest;
  signIn: Pick<SignInDeps, 'groupsOf'>;
}): AccessDenial {
  return {
    async describe(returnTo, user) {
      const request = isSafeReturnTo(returnTo) ? await deps.readRequest(returnTo) : null;
      if (!request) return null;
      return {
        clientName: request.client.name,
        allowed: await mayUse(request.client.access, user, deps.signIn),
        backTo: authorizeReturnTo(request, { set: { [interactionParams.accessDenied]: 'true' } }),
      };
    },
  };
}
