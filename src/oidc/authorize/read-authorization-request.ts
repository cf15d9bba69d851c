import { authorizePath, type ReadAuthorizationRequest } from '../../interaction/index.js';
import { validationSteps } from './index.js';
import { runSteps } from './run-steps.js';
import type { AuthorizeDeps, RawAuthorizationParams } from './types.js';

/**
 * How the consent page's API (src/interaction/consent-service.ts) reads the
 * request it answers: its return_to must be a path to /oauth2/authorize that
 * still passes every validation step (the client or its redirect URIs may
 * have changed since); otherwise null. Wired by ../wire-protocol.ts.
 */
export function authorizationRequestReader(deps: AuthorizeDeps): ReadAuthorizationRequest {
  return async (returnTo) => {
    const url = new URL(returnTo, 'http://return-to.invalid');
    // A pushed request is claimed only by the authorization endpoint; the path back carries its sealed continuation.
    if (url.pathname !== authorizePath || url.searchParams.has('request_uri')) return null;
    const params: RawAuthorizationParams = {};
    for (const name of new Set(url.searchParams.keys())) {
      const values = url.searchParams.getAll(name);
      params[name] = values.length === 1 ? values[0] : values;
    }
    // No session: validation does not depend on who is signed in.
    const result = await runSteps(validationSteps, { params, session: null }, deps);
    return 'outcome' in result ? null : { ...result.state, device: null };
  };
}
