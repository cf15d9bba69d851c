import type { ClientRecord } from '../model/index.js';

/**
 * The web origins browser apps of the registered clients run on: the origin
 * (scheme, host, port) of each redirect URI, which is where an app that
 * receives the authorization response calls the token side from. The CORS
 * rules of src/http echo an Origin only when it is in one of these sets.
 */
export interface ClientOrigins {
  /** Of every client's redirect URIs. */
  all: ReadonlySet<string>;
  /** Of public clients only (token_endpoint_auth_method none): the only apps that belong in a browser, which keeps no secret. */
  publicClients: ReadonlySet<string>;
}

export function clientOrigins(clients: readonly ClientRecord[]): ClientOrigins {
  const all = new Set<string>();
  const publicClients = new Set<string>();
  for (const client of clients) {
    for (const uri of client.redirectUris) {
      const origin = webOriginOf(uri);
      if (origin === null) continue;
      all.add(origin);
      if (client.tokenEndpointAuthMethod === 'none') publicClients.add(origin);
    }
  }
  return { all, publicClients };
}

/**
 * http(s) URIs only: a native app's custom scheme (com.example.app:/cb) has
 * the opaque origin "null", which sandboxed frames and file: pages also
 * send, so it must never be allowed.
 */
function webOriginOf(uri: string): string | null {
  try {
    const url = new URL(uri);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}
