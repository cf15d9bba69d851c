import type { ClientAuthMethod } from '../model/index.js';

/** The credentials a request presents for its client (RFC 6749 §2.3), read once at the HTTP edge. */
export type ClientCredentials =
  | {
      authMethod: Exclude<ClientAuthMethod, 'none'>;
      clientId: string;
      clientSecret: string;
      /**
       * Basic only, when form-decoding changed the id or the secret: both as
       * they were sent. Many relying parties (Authlib, python requests) put
       * them into Basic without the form-encoding RFC 6749 §2.3.1 asks for,
       * so a `+` or `%` in a secret means itself to them.
       */
      asSent?: { clientId: string; clientSecret: string };
    }
  | { authMethod: 'none'; clientId: string; clientSecret: null };

/**
 * Why a client did not authenticate. This folder says what failed; the
 * protocol endpoints render it (src/oidc/authenticate-client.ts), so that
 * clients/ needs nothing from oidc/. `error` is the RFC 6749 §5.2 code the
 * failure answers with.
 */
export interface ClientAuthenticationFailure {
  readonly error: 'invalid_client' | 'invalid_request';
  readonly description: string;
  /** The request tried HTTP Basic: a 401 then carries the Basic challenge (RFC 6749 §5.2). */
  readonly usedBasic: boolean;
}

/** What the edge hands on: the credentials as read, or why they could not be read. */
export type PresentedCredentials = ClientCredentials | ClientAuthenticationFailure;
