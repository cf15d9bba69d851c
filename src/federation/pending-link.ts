import type { Clock } from '../clock.js';
import { sealValue, unsealValue } from '../interaction/sealed-value.js';

/**
 * A link waiting for its user to sign in (docs/oidc.md, "Interaction: the sign-in steps"): the upstream's
 * address belongs to an existing account, and the strategy (require_link,
 * or an address the upstream does not assert verified) asks for proof that
 * this person owns that account. The browser keeps it in a sealed cookie,
 * so only the browser that signed in at the upstream can complete it, and
 * only within `pendingLinkTtlMs`.
 */
export interface PendingLink {
  providerId: string;
  subject: string;
  email: string;
  expiresAt: number;
}

export const pendingLinkTtlMs = 10 * 60 * 1000;
const purpose = 'upstream pending link';

export function createPendingLinks(deps: { cookiePassword: string; clock: Clock }) {
  return {
    seal(link: Omit<PendingLink, 'expiresAt'>): string {
      return sealValue({ ...link, expiresAt: deps.clock.now() + pendingLinkTtlMs }, deps.cookiePassword, purpose);
    },
    /** The pending link in the cookie, or null when there is none, it was not sealed here, or it expired. */
    open(cookie: string | null): PendingLink | null {
      const value = cookie ? (unsealValue(cookie, deps.cookiePassword, purpose) as Partial<PendingLink> | null) : null;
      if (
        !value ||
        typeof value.providerId !== 'string' ||
        typeof value.subject !== 'string' ||
        typeof value.email !== 'string'
      )
        return null;
      if (typeof value.expiresAt !== 'number' || value.expiresAt <= deps.clock.now()) return null;
      return { providerId: value.providerId, subject: value.subject, email: value.email, expiresAt: value.expiresAt };
    },
  };
}

export type PendingLinks = ReturnType<typeof createPendingLinks>;
