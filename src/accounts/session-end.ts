import type { Clock } from '../clock.js';
import type { SessionRecord } from '../model/index.js';
import type {
  AuthorizationCodeRepository,
  DeviceCodeRepository,
  SessionRepository,
  TokenRepository,
  Tx,
} from '../storage/repositories.js';
import type { LogoutOutbox } from './logout-outbox.js';

/**
 * Every way a browser session is ended on purpose (docs/oidc.md, "Sign-out
 * and back-channel logout"), inside the caller's transaction: the grants
 * issued in the session are revoked, except those with `offline_access`
 * (OIDC Core §11: they live on until revoked); codes of the session not yet
 * redeemed are deleted and device requests it approved but whose device
 * has not polled yet are denied, so no new grant comes out of it; and every client
 * with a `backchannel_logout_uri` that got a grant in it is queued one Logout
 * Token. A session that merely expires is not ended here: its grants run to
 * their own expiry.
 */
export interface SessionEnd {
  /** One session (POST /api/auth/logout, RP-initiated logout). */
  one(tx: Tx, idHash: string): Promise<void>;
  /** Every session of these users (password reset, deletion, second-factor reset, removal by apply). */
  allOf(tx: Tx, subs: string[]): Promise<void>;
  /** Every session of the user but `keepIdHash` (a password change keeps the caller's). */
  othersOf(tx: Tx, sub: string, keepIdHash: string): Promise<void>;
}

export function createSessionEnd(deps: {
  sessions: SessionRepository;
  tokens: TokenRepository;
  codes: AuthorizationCodeRepository;
  deviceCodes: DeviceCodeRepository;
  outbox: LogoutOutbox;
  clock: Clock;
}): SessionEnd {
  const { sessions, tokens, codes, deviceCodes, outbox, clock } = deps;

  /** What the sessions issued, before the sessions themselves go. */
  async function endWhatTheyIssued(tx: Tx, ending: SessionRecord[]): Promise<void> {
    if (ending.length === 0) return;
    const ids = ending.map((session) => session.idHash);
    const receivers = new Map<string, string[]>();
    for (const { sessionId, clientId } of await tokens.findBackchannelLogoutClients(tx, ids))
      receivers.set(sessionId, [...(receivers.get(sessionId) ?? []), clientId]);
    await tokens.revokeGrantsOfSessions(tx, ids, clock.now());
    await codes.deleteUnredeemedOfSessions(tx, ids);
    await deviceCodes.denyApprovedOfSessions(tx, ids);
    for (const session of ending)
      for (const clientId of receivers.get(session.idHash) ?? [])
        await outbox.queue(tx, { clientId, sub: session.sub, sid: session.publicId });
  }

  return {
    async one(tx, idHash) {
      const session = await sessions.findByIdHash(tx, idHash);
      if (!session) return;
      await endWhatTheyIssued(tx, [session]);
      await sessions.delete(tx, idHash);
    },
    async allOf(tx, subs) {
      await endWhatTheyIssued(tx, await sessions.findBySubs(tx, subs));
      await sessions.deleteBySubs(tx, subs);
    },
    async othersOf(tx, sub, keepIdHash) {
      const others = (await sessions.findBySubs(tx, [sub])).filter((session) => session.idHash !== keepIdHash);
      await endWhatTheyIssued(tx, others);
      await sessions.deleteOthersOfUser(tx, sub, keepIdHash);
    },
  };
}
