/**
 * A user's link to an account at an upstream identity provider (the OAuth Connect tag,
 * docs/http-api.md). The provider id and the upstream subject identify it:
 * one upstream account signs in one user, and a user has at most one
 * connection per provider.
 */
export interface ConnectionRecord {
  /** identity_providers[].id; kept when the provider leaves the config (unusable until it returns). */
  providerId: string;
  /** The upstream's stable id of the account (`sub` of OpenID upstreams, GitHub's numeric user id). */
  subject: string;
  sub: string;
  /** The upstream e-mail when the link was made (shown in the account's list). */
  email: string | null;
  linkedAt: number;
}

export type UpstreamIntent = 'login' | 'link';

/**
 * A sign-in at an upstream in progress: the `state` sent to it (RFC 6749
 * §10.12), stored hashed and redeemed once, bound to the browser that
 * started it.
 */
export interface UpstreamStateRecord {
  /** base64url SHA-256 of the state parameter. */
  stateHash: string;
  providerId: string;
  /** base64url SHA-256 of the browser's binding cookie. */
  bindingHash: string;
  intent: UpstreamIntent;
  /** Same-origin path to go back to afterwards. */
  returnTo: string;
  /** intent=link: the signed-in user who asked for the link. */
  linkSub: string | null;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
}
