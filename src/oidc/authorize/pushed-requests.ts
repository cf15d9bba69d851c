import type { Clock } from '../../clock.js';
import { sealValue, unsealValue } from '../../interaction/sealed-value.js';
import type { PushedAuthorizationRequestRepository, Tx } from '../../storage/repositories.js';
import { hashOpaqueToken, newOpaqueToken } from '../tokens/index.js';

/** RFC 9126 §2.2: the request_uri is a URN of this form. */
export const requestUriPrefix = 'urn:ietf:params:oauth:request_uri:';

/** RFC 9126 §2.2 expires_in: long enough for a redirect, short enough that a leaked one is soon worthless. */
export const pushedRequestTtlSeconds = 60;

/**
 * How long the browser may take over the sign-in pages of a pushed request
 * once it has been claimed (a password, a second factor, consent).
 */
export const pushedInteractionTtlMs = 60 * 60 * 1000;

/**
 * The parameter of the path back to the authorization endpoint that
 * carries a claimed pushed request through the sign-in pages (docs/oidc.md,
 * "Pushed authorization requests").
 */
export const pushedRequestParam = 'pushed_request';

/** A claimed pushed request on its way through the sign-in pages: sealed, so the browser can neither read nor change it. */
export interface PushedContinuation {
  clientId: string;
  params: Record<string, string>;
  /** Epoch ms. */
  expiresAt: number;
}

export interface PushedRequests {
  /** Stores validated parameters; the request_uri to hand the client. */
  push(clientId: string, params: Record<string, string>): Promise<{ requestUri: string; expiresIn: number }>;
  /** The pushed parameters of a request_uri (with requestUriPrefix), once: null when unknown, expired, already claimed or another client's. */
  claim(requestUri: string, clientId: string): Promise<Record<string, string> | null>;
  /** The continuation of a request claimed now, sealed for the path back. */
  seal(clientId: string, params: Record<string, string>): string;
  /** The continuation, or null when it is not one this server sealed, or it has expired. */
  open(sealed: string): PushedContinuation | null;
}

const purpose = 'pushed authorization request';

export function createPushedRequests(deps: {
  db: Tx;
  repository: PushedAuthorizationRequestRepository;
  clock: Clock;
  /** A key of the server secret's for this purpose only. */
  sealKey: string;
}): PushedRequests {
  const { db, repository, clock, sealKey } = deps;
  return {
    async push(clientId, params) {
      // The URN carries 256 random bits; only their hash is stored, like a code's.
      const secret = newOpaqueToken();
      const now = clock.now();
      await repository.insert(db, {
        requestHash: hashOpaqueToken(secret),
        clientId,
        params,
        expiresAt: now + pushedRequestTtlSeconds * 1000,
        usedAt: null,
        createdAt: now,
      });
      return { requestUri: `${requestUriPrefix}${secret}`, expiresIn: pushedRequestTtlSeconds };
    },
    async claim(requestUri, clientId) {
      const secret = requestUri.slice(requestUriPrefix.length);
      const record = await repository.claim(db, hashOpaqueToken(secret), clientId, clock.now());
      return record?.params ?? null;
    },
    seal(clientId, params) {
      const continuation: PushedContinuation = { clientId, params, expiresAt: clock.now() + pushedInteractionTtlMs };
      return sealValue(continuation, sealKey, purpose);
    },
    open(sealed) {
      const value = unsealValue(sealed, sealKey, purpose) as PushedContinuation | null;
      if (value === null || value.expiresAt <= clock.now()) return null;
      return value;
    },
  };
}
