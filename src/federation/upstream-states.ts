import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { UpstreamIntent, UpstreamStateRecord } from '../model/index.js';
import type { Tx, UpstreamStateRepository } from '../storage/repositories.js';
import { FederationError } from './federation-error.js';
import type { UpstreamRequestSecrets } from './upstream-client.js';

/** A sign-in at an upstream must come back within this time. */
export const upstreamStateTtlMs = 10 * 60 * 1000;

const hash = (value: string) => createHash('sha256').update(value).digest('base64url');
const random = () => randomBytes(32).toString('base64url');

/** A new value for the browser's binding cookie (32 random bytes). */
export function newBinding(): string {
  return random();
}

/**
 * The `state` of each upstream sign-in (RFC 6749 §10.12), bound to the
 * browser that started it and good once. The database keeps only the
 * state's hash, the hash of the browser's binding cookie, and where to go
 * next; the PKCE code_verifier and the nonce are not stored at all: they
 * are HMACs of the state under a server key, computed again when the state
 * comes back, so a database read gives nothing to redeem a code with.
 */
export function createUpstreamStates(deps: { db: Tx; states: UpstreamStateRepository; clock: Clock; key: string }) {
  const derive = (purpose: string, state: string) =>
    createHmac('sha256', deps.key).update(`${purpose}\0${state}`).digest('base64url');
  const secretsOf = (state: string): UpstreamRequestSecrets => {
    const codeVerifier = derive('pkce', state);
    // RFC 7636 §4.2: BASE64URL(SHA256(ASCII(code_verifier))).
    return { state, codeVerifier, codeChallenge: hash(codeVerifier), nonce: derive('nonce', state) };
  };
  const invalidState = () =>
    new FederationError(
      'INVALID_STATE',
      'The sign-in request is missing, expired, already used, or from another browser.',
    );

  return {
    async begin(input: {
      providerId: string;
      intent: UpstreamIntent;
      returnTo: string;
      linkSub: string | null;
      binding: string;
    }): Promise<UpstreamRequestSecrets> {
      const state = random();
      const now = deps.clock.now();
      await deps.states.insert(deps.db, {
        stateHash: hash(state),
        providerId: input.providerId,
        bindingHash: hash(input.binding),
        intent: input.intent,
        returnTo: input.returnTo,
        linkSub: input.linkSub,
        createdAt: now,
        expiresAt: now + upstreamStateTtlMs,
        consumedAt: null,
      });
      return secretsOf(state);
    },

    /**
     * Redeems the state that came back: it must exist for the browser
     * holding the binding cookie, be unused (one conditional update that
     * matches the binding too, so a callback without the cookie or with
     * another browser's spends nothing and the real browser's sign-in still
     * works), unexpired, and for this provider. Anything else is
     * INVALID_STATE. The binding is compared in the database as its SHA-256:
     * a timing difference there tells nothing about the cookie itself.
     */
    async redeem(input: {
      state: string | undefined;
      providerId: string;
      binding: string | null;
    }): Promise<{ record: UpstreamStateRecord; secrets: UpstreamRequestSecrets }> {
      if (!input.state || input.binding === null) throw invalidState();
      const found = await deps.states.consume(
        deps.db,
        { stateHash: hash(input.state), bindingHash: hash(input.binding) },
        deps.clock.now(),
      );
      if (!found || found.alreadyConsumed) throw invalidState();
      const { record } = found;
      if (record.expiresAt <= deps.clock.now() || record.providerId !== input.providerId) throw invalidState();
      return { record, secrets: secretsOf(input.state) };
    },
  };
}

export type UpstreamStates = ReturnType<typeof createUpstreamStates>;
