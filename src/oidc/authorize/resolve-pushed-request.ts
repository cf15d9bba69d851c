import { interactionParams } from '../../interaction/index.js';
import { OAuthError } from '../errors.js';
import type { Parsed } from './parse.js';
import { pushedRequestParam, requestUriPrefix } from './pushed-requests.js';
import type { AuthorizeDeps } from './types.js';

const unusable = (description: string) => new OAuthError('invalid_request_uri', description);

/**
 * RFC 9126 §4: a request_uri of the PAR endpoint stands for the parameters
 * the client pushed; the other query parameters are ignored. It is claimed
 * on first arrival, once, and the claimed parameters go on through the
 * sign-in pages sealed in the `pushed_request` parameter of the path back
 * (docs/oidc.md, "Pushed authorization requests"). Coming back, only what
 * this server adds on the way may change: its interaction parameters, and
 * prompt values it has satisfied, dropped. Any other request_uri is left
 * for checkResponseType (request_uri_not_supported). Errors here come
 * before the redirect URI is known: an error page.
 */
export async function resolvePushedRequest(state: Parsed, deps: AuthorizeDeps): Promise<Parsed> {
  // Only the parameters that were sent are there.
  const params: Readonly<Partial<Record<string, string>>> = state.params;
  const requestUri = params.request_uri;
  const continuation = params[pushedRequestParam];
  if (requestUri?.startsWith(requestUriPrefix)) {
    const clientId = params.client_id;
    if (clientId === undefined) throw new OAuthError('invalid_request', 'The client_id parameter is missing.');
    const pushed = await deps.pushedRequests.claim(requestUri, clientId);
    if (!pushed) throw unusable('The request_uri is unknown, expired, already used, or not of this client.');
    return {
      ...state,
      params: { ...pushed, [pushedRequestParam]: deps.pushedRequests.seal(clientId, pushed) },
      pushed: true,
    };
  }
  if (continuation === undefined) return state;
  const opened = deps.pushedRequests.open(continuation);
  if (!opened || opened.clientId !== params.client_id) {
    throw unusable('The pushed authorization request has expired or is not valid: start again from the application.');
  }
  return { ...state, params: continueWith(opened.params, params, continuation), pushed: true };
}

/** The pushed parameters with what this server changed on the way back. */
function continueWith(
  pushed: Readonly<Partial<Record<string, string>>>,
  back: Readonly<Partial<Record<string, string>>>,
  continuation: string,
): Record<string, string> {
  const changed = new Set<string>([...Object.values(interactionParams), 'prompt']);
  const params = Object.fromEntries(
    Object.entries(pushed).filter((entry): entry is [string, string] => !changed.has(entry[0])),
  );
  for (const name of Object.values(interactionParams)) {
    const value = back[name];
    if (value !== undefined) params[name] = value;
  }
  const kept = (back.prompt ?? '').split(' ');
  const prompt = (pushed.prompt ?? '').split(' ').filter((value) => value !== '' && kept.includes(value));
  if (prompt.length > 0) params.prompt = prompt.join(' ');
  params[pushedRequestParam] = continuation;
  return params;
}
