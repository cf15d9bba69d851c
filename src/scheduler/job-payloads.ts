import type { BackchannelLogoutJob } from '../accounts/logout-outbox.js';
import type { MailJob } from '../mail/mail-job.js';

/**
 * The payload type of every job kind. A capability that adds a kind extends
 * this interface by declaration merging, next to its handler:
 *
 *   declare module '../scheduler/job-payloads.js' {
 *     interface JobPayloads { 'email.send': { to: string; template: string } }
 *   }
 *
 * so that `enqueue('email.send', payload)` and its handler are type-checked.
 * A capability in a layer below the scheduler, which may not import it
 * (docs/architecture.md), names its payload type here instead.
 */
export interface JobPayloads {
  /** Built in and harmless: does nothing for `delayMs` (0..60000), then succeeds. See docs/scheduler.md. */
  noop: { delayMs?: number; note?: string };
  /** An account mail (src/mail, MailJob): no secret, the handler mints the link when it sends. See docs/scheduler.md. */
  'mail.send': MailJob;
  /** One Logout Token to send (src/oidc/backchannel-logout): no secret, the handler signs it when it sends. See docs/scheduler.md. */
  'backchannel.logout': BackchannelLogoutJob;
}

export type JobKind = Extract<keyof JobPayloads, string>;
