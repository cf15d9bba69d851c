import type { EmailConfig } from '../config/types.js';
import type { MailOutbox, MailTemplate } from '../mail/index.js';
import type { Tx } from '../storage/repositories.js';
import { emailDisabled } from './account-errors.js';
import type { RequestRateLimit } from './request-rate-limit.js';

export interface MailRequestInput {
  email: string;
  locale: string;
  clientAddress: string;
}

/**
 * "Send me a link" (docs/http-api.md, "Self-service accounts": resend and forgot, "202 always"):
 * email.enabled (503 EMAIL_DISABLED) → the rate limit per e-mail and per
 * address (429) → queue the mail job. Every address gets exactly this work,
 * two counter upserts and one insert, whether or not it belongs to an
 * account: whether it does is decided by the job when it runs
 * (./account-mail.ts), after the answer, so neither the answer nor its
 * timing tells.
 */
export type MailRequest = (input: MailRequestInput) => Promise<void>;

export function createMailRequest(deps: {
  db: Tx;
  outbox: MailOutbox;
  email: EmailConfig;
  rateLimit: RequestRateLimit;
  template: MailTemplate;
}): MailRequest {
  return async ({ email, locale, clientAddress }) => {
    if (!deps.email.enabled) throw emailDisabled();
    await deps.rateLimit.count({ email, clientAddress });
    await deps.outbox.queue(deps.db, { template: deps.template, email, locale });
  };
}
