import { decideAccess } from '../../access/decide-access.js';
import type { ClientAccess, UserRecord } from '../../model/index.js';
import { accessDeniedLocation, authorizeReturnTo } from '../interaction-location.js';
import type { SignInDeps } from '../sign-in-deps.js';
import type { Identified } from '../sign-in-state.js';
import { proceed, refuse, showPage, type StepResult } from '../step-result.js';

const noAccess = { error: 'access_denied', description: 'The user has no access to this client.' } as const;

/**
 * access (`clients[].access`, docs/configuration.md): a user outside the
 * client's groups or roles is not sent on to consent. The browser goes to
 * /access-denied, which offers another account or "Back to" the client;
 * that comes back with access_denied=true, and the request ends with
 * access_denied (RFC 6749 §4.1.2.1); under prompt=none it ends so at once.
 * Each refusal here records `access.denied` once: reloading the page does
 * not come back through this step, and "Back to" only delivers the answer.
 * A sign-in through the API has no client yet: the authorization request
 * the browser goes back to is checked.
 */
export async function access(state: Identified, deps: SignInDeps): Promise<StepResult> {
  const { identity, request } = state;
  if (request === null) return proceed(state);
  if (request.accessDenied) return refuse(noAccess);
  if (await mayUse(request.client.access, identity.user, deps)) return proceed(state);
  await deps.recordAccessDenied(identity.sub, request.client.clientId);
  return showPage(request, accessDeniedLocation(authorizeReturnTo(request)), noAccess);
}

/**
 * Whether the user may use a client with this access rule
 * (src/access/decide-access.ts); the user's groups are read only for a
 * rule that names groups, so a client without one costs nothing.
 */
export async function mayUse(
  rule: ClientAccess | null,
  user: UserRecord,
  deps: Pick<SignInDeps, 'groupsOf'>,
): Promise<boolean> {
  if (rule === null) return true;
  const groups = rule.groups === null ? [] : await deps.groupsOf(user.sub);
  return decideAccess(rule, user, new Set(groups)).allowed;
}
