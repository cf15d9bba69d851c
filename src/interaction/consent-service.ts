import type { UserGroupReader } from '../access/user-groups.js';
import { ApiError } from '../api-error.js';
import type { Clock } from '../clock.js';
import type { EventLog } from '../events/index.js';
import type { Storage } from '../storage/repositories.js';
import { authorizeReturnTo, interactionParams } from './interaction-location.js';
import { isSafeReturnTo } from './return-to.js';
import { describeScope } from './scope-descriptions.js';
import { consentScopes, type PendingAuthorization } from './sign-in-state.js';

export interface ConsentPrompt {
  clientId: string;
  clientName: string;
  /** Where the answer goes (registered, exact): the page tells the user its host. Null for a device's request. */
  redirectUri: string | null;
  /**
   * A device's request (RFC 8628): the answer goes to the device that showed
   * the user code, and the page warns to go on only when that device is
   * the user's own.
   */
  device: boolean;
  scopes: { scope: string; description: string }[];
  /**
   * The groups the application will see in the `groups` claim, each once,
   * by name: null when it does not ask for the groups scope (or nobody is
   * signed in to ask about).
   */
  groups: { id: string; name: string }[] | null;
  /**
   * The requested scopes the viewer allowed this client before (a consent
   * asked again, for new scopes or by prompt=consent), so that the page can
   * say what changed; [] for a first consent or without a viewer.
   */
  alreadyGranted: string[];
}

export type ConsentDecision = 'allow' | 'deny';

/**
 * The page of the consent step (./steps/consent.ts), behind GET and POST
 * /api/consent: the page reads what to show, then posts the decision and
 * follows `redirectTo` back to the authorization endpoint, whose steps then
 * find the grant (allow) or the denial (deny, access_denied).
 */
export interface ConsentService {
  /** `viewer`: the signed-in user, whose groups the prompt names; null where only the client matters. */
  describe(returnTo: unknown, viewer: { sub: string } | null): Promise<ConsentPrompt>;
  decide(
    returnTo: unknown,
    decision: ConsentDecision,
    session: { sub: string },
    context: { clientAddress: string },
  ): Promise<{ redirectTo: string }>;
}

/**
 * The authorization request a same-origin path points back at, or null
 * when it is not a valid one. src/oidc/authorize implements it (this folder
 * is below the protocol engine); src/oidc/wire-protocol.ts wires it.
 */
export type ReadAuthorizationRequest = (returnTo: string) => Promise<PendingAuthorization | null>;

const invalidReturnTo = () =>
  new ApiError(
    400,
    'INVALID_RETURN_TO',
    'The return_to parameter is not a valid authorization request on this server.',
  );

export function createConsentService(deps: {
  storage: Pick<Storage, 'db' | 'transaction' | 'repositories'>;
  events: EventLog;
  readRequest: ReadAuthorizationRequest;
  userGroups: Pick<UserGroupReader, 'names'>;
  clock: Clock;
  /** Records that this user allowed the device's request with this user code (false when it is no longer pending). */
  confirmDevice(userCode: string, sub: string): Promise<boolean>;
}): ConsentService {
  async function read(returnTo: unknown): Promise<PendingAuthorization> {
    const request = isSafeReturnTo(returnTo) ? await deps.readRequest(returnTo) : null;
    if (!request) throw invalidReturnTo();
    return request;
  }

  async function grantedBefore(sub: string, clientId: string, scopes: string[]): Promise<string[]> {
    const { storage } = deps;
    const granted = (await storage.repositories.consents.find(storage.db, sub, clientId))?.scopes ?? [];
    return scopes.filter((scope) => granted.includes(scope));
  }

  return {
    async describe(returnTo, viewer) {
      const request = await read(returnTo);
      const scopes = consentScopes(request);
      return {
        clientId: request.client.clientId,
        clientName: request.client.name,
        redirectUri: request.device === null ? request.params.redirect_uri : null,
        device: request.device !== null,
        scopes: scopes.map((scope) => ({ scope, description: describeScope(scope) })),
        groups: viewer !== null && scopes.includes('groups') ? await deps.userGroups.names(viewer.sub) : null,
        alreadyGranted: viewer === null ? [] : await grantedBefore(viewer.sub, request.client.clientId, scopes),
      };
    },

    async decide(returnTo, decision, session, context) {
      const request = await read(returnTo);
      if (decision === 'deny') {
        return {
          redirectTo: authorizeReturnTo(request, {
            dropPrompt: 'consent',
            set: { [interactionParams.consentDenied]: 'true' },
          }),
        };
      }
      const clientId = request.client.clientId;
      const scopes = consentScopes(request);
      await deps.storage.transaction(async (tx) => {
        await deps.storage.repositories.consents.grant(tx, session.sub, clientId, scopes, deps.clock.now());
        await deps.events.record(tx, {
          type: 'consent.granted',
          actor: session.sub,
          subject: session.sub,
          clientId,
          clientAddress: context.clientAddress,
          detail: { scopes },
        });
      });
      // The device's request is approved only when the steps run again and pass, for this user.
      if (request.device !== null) await deps.confirmDevice(request.device.userCode, session.sub);
      return { redirectTo: authorizeReturnTo(request, { dropPrompt: 'consent' }) };
    },
  };
}
