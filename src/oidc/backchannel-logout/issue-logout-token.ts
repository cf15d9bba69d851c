import { randomUUID } from 'node:crypto';
import { signJwt } from '../../keys/index.js';
import type { SigningAlgorithm } from '../../model/index.js';
import type { ProtocolDeps } from '../protocol-deps.js';

/** The `events` member that makes a JWT a Logout Token (Back-Channel Logout §2.4). */
export const backchannelLogoutEvent = 'http://schemas.openid.net/event/backchannel-logout';

/** A Logout Token is good for two minutes from its delivery: long enough to cross a network, too short to keep. */
export const logoutTokenTtlSeconds = 120;

export interface LogoutTokenInput {
  clientId: string;
  sub: string;
  sid: string;
  /** The client's id_token_signed_response_alg: a Logout Token is verified like its ID tokens (§2.6). */
  alg: SigningAlgorithm;
}

/**
 * Back-Channel Logout §2.4: iss, aud (the client), iat, exp, a fresh jti,
 * sub, sid and the logout event; never a nonce (§2.4 forbids it, so that a
 * Logout Token cannot pass for an ID token). Typed `logout+jwt` (§2.4,
 * RFC 8725 §3.11) for the same reason. Signed when it is sent, with the
 * current key, so a key rotated between the sign-out and a retry is no
 * obstacle.
 */
export async function issueLogoutToken(
  input: LogoutTokenInput,
  deps: Pick<ProtocolDeps, 'issuer' | 'clock' | 'keys' | 'signingPool'>,
): Promise<string> {
  const key = await deps.keys.signingKey(input.alg);
  const now = Math.floor(deps.clock.now() / 1000);
  return signJwt(deps.signingPool, key, 'logout+jwt', {
    iss: deps.issuer,
    aud: input.clientId,
    iat: now,
    exp: now + logoutTokenTtlSeconds,
    jti: randomUUID(),
    sub: input.sub,
    sid: input.sid,
    events: { [backchannelLogoutEvent]: {} },
  });
}
