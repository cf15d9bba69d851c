import { OAuthError } from '../errors.js';
import type { Parsed } from './parse.js';
import type { AuthorizeClient, AuthorizeDeps } from './types.js';

export interface WithClient extends Parsed {
  client: AuthorizeClient;
}

/** An unknown client cannot be redirected to: its error is shown as a page. */
export async function loadClient(state: Parsed, deps: AuthorizeDeps): Promise<WithClient> {
  // Only the parameters that were sent are there.
  const params: Readonly<Partial<Record<string, string>>> = state.params;
  const clientId = params.client_id;
  if (clientId === undefined) throw new OAuthError('invalid_request', 'The client_id parameter is missing.');
  const client = await deps.findClient(clientId);
  if (!client) throw new OAuthError('invalid_client', 'The client is unknown.', 400);
  return { ...state, client };
}
