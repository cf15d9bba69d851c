import type { Clock } from '../clock.js';
import type { EventLog } from '../events/index.js';
import type { Tx, UserRepository } from '../storage/repositories.js';
import type { UserRecord } from '../model/index.js';
import { invalidToken } from './account-errors.js';
import type { LinkTokens } from './link-tokens.js';
import type { MailRequest, MailRequestInput } from './mail-request.js';
import { dropUnprovenAccess, type UnprovenAccessDeps } from './drop-unproven-access.js';

/**
 * E-mail verification (docs/http-api.md, "Self-service accounts"): the link of the verification mail
 * carries a token; redeeming it marks the address verified (and voids the
 * user's other verification links), and removes the connections, passkeys
 * and authenticator app set up before it (./drop-unproven-access.ts). A
 * token mailed before the
 * user's address changed verifies nothing.
 */
export interface EmailVerification {
  /** POST /api/auth/email/verify: the verified user, or 400 INVALID_TOKEN. */
  verify(token: string, context: { clientAddress: string }): Promise<UserRecord>;
  /** POST /api/auth/email/resend: 202 always (./mail-request.ts). */
  resend(input: MailRequestInput): Promise<void>;
}

export function createEmailVerification(
  deps: UnprovenAccessDeps & {
    transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
    users: UserRepository;
    linkTokens: LinkTokens;
    resend: MailRequest;
    events: EventLog;
    clock: Clock;
  },
): EmailVerification {
  return {
    verify(token, context) {
      return deps.transaction(async (tx) => {
        const user = await deps.linkTokens.redeem(tx, token, 'email_verification', (sub) =>
          deps.users.findBySub(tx, sub),
        );
        if (!user) throw invalidToken();
        await dropUnprovenAccess(deps, tx, user, context.clientAddress);
        const changes = { emailVerified: true, updatedAt: deps.clock.now() };
        await deps.users.update(tx, user.sub, changes);
        await deps.events.record(tx, {
          type: 'email.verified',
          actor: user.sub,
          subject: user.sub,
          clientAddress: context.clientAddress,
        });
        return { ...user, ...changes };
      });
    },
    resend: deps.resend,
  };
}
