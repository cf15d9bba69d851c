import type { Server } from '@hapi/hapi';
import { sessionCookieName } from './cookie-session-auth.js';

/** What the cache reads of a request: a hapi request, or a raw one beside its server (../forward-auth-fast-path.ts). */
export interface CookieRequest {
  headers: { cookie?: string | string[] };
  server: Pick<Server, 'states'>;
}

/** Distinct cookies remembered: a few megabytes at most. */
const maxEntries = 10_000;

/**
 * The raw session id of the `session` cookie, for routes asked on every
 * request of other apps (forward authentication, docs/forward-auth.md),
 * which turn hapi's own cookie parsing off. Unsealing the iron cookie
 * costs two key derivations on libuv's thread pool; the sealed text maps
 * to one id forever (the seal has no expiry: the session row decides), so
 * each distinct cookie is unsealed once. Only cookies that unseal are
 * remembered: a forged one costs its caller the unsealing every time, as
 * on any other route. Exactly one `session` cookie counts: two (a host
 * cookie beside a domain one) are no session, as hapi's parsing has it.
 */
export function createSessionCookieCache(): (request: CookieRequest) => Promise<string | null> {
  const ids = new Map<string, string>();
  return async (request) => {
    const header = request.headers.cookie;
    if (typeof header !== 'string') return null;
    const sealed = soleSessionCookie(header);
    if (sealed === null) return null;
    const known = ids.get(sealed);
    if (known !== undefined) return known;
    const states = request.server.states as unknown as {
      parse(header: string): Promise<{ states: Record<string, unknown> }>;
    };
    let sid: unknown;
    try {
      sid = (
        (await states.parse(`${sessionCookieName}=${sealed}`)).states[sessionCookieName] as
          { sid?: unknown } | undefined
      )?.sid;
    } catch {
      return null;
    }
    if (typeof sid !== 'string') return null;
    if (ids.size >= maxEntries) ids.delete(ids.keys().next().value as string);
    ids.set(sealed, sid);
    return sid;
  };
}

const prefix = `${sessionCookieName}=`;

/** The value of the one `session` pair of a Cookie header; null when there is none or more than one. */
function soleSessionCookie(header: string): string | null {
  let found: string | null = null;
  // A loop over the pairs rather than split/map/filter: this runs on every request of every protected app.
  for (let start = 0; start <= header.length;) {
    const semicolon = header.indexOf(';', start);
    const end = semicolon === -1 ? header.length : semicolon;
    const pair = header.slice(start, end).trim();
    if (pair.startsWith(prefix)) {
      if (found !== null) return null;
      found = pair.slice(prefix.length);
    }
    start = end + 1;
  }
  return found;
}
