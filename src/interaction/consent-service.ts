import type { Clock } from '../clock.js';
import { authorizeReturnTo, type AuthorizeDeps, type AuthorizeSession } from '../oidc/authorize/index.js';
import { interactionParams } from '../oidc/authorize/interaction-location.js';
import type { ConsentRepository, Tx } from '../storage/repositories.js';
import { readAuthorizationRequest } from './read-authorization-request.js';
import { describeScope } from './scope-descriptions.js';

export interface ConsentPrompt {
  clientId: string;
  clientName: string;
  scopes: { scope: string; description: string }[];
}

export type ConsentDecision = 'allow' | 'deny';

/**
 * The consent step of DESIGN.md 7, behind GET and POST /api/consent: the
 * page reads what to show, then posts the decision and follows `redirectTo`
 * back to the authorization endpoint, which issues the code (allow) or
 * answers the client with access_denied (deny, RFC 6749 §4.1.2.1).
 */
export interface ConsentService {
  describe(returnTo: unknown, session: AuthorizeSession): Promise<ConsentPrompt>;
  decide(returnTo: unknown, decision: ConsentDecision, session: AuthorizeSession): Promise<{ redirectTo: string }>;
}

export function createConsentService(deps: {
  db: Tx;
  consents: ConsentRepository;
  authorize: AuthorizeDeps;
  clock: Clock;
}): ConsentService {
  return {
    async describe(returnTo, session) {
      const request = await readAuthorizationRequest(returnTo, session, deps.authorize);
      return {
        clientId: request.client.clientId,
        clientName: request.client.name,
        scopes: request.scopes.map((scope) => ({ scope, description: describeScope(scope) })),
      };
    },

    async decide(returnTo, decision, session) {
      const request = await readAuthorizationRequest(returnTo, session, deps.authorize);
      if (decision === 'deny') {
        return { redirectTo: authorizeReturnTo(request.params, { dropPrompt: 'consent', set: { [interactionParams.consentDenied]: 'true' } }) };
      }
      await deps.consents.grant(deps.db, session.sub, request.client.clientId, request.scopes, deps.clock.now());
      return { redirectTo: authorizeReturnTo(request.params, { dropPrompt: 'consent' }) };
    },
  };
}
