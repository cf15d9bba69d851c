import type { LogoutOutbox } from '../accounts/index.js';
import type { MailSendJob } from '../accounts/mail-send-job.js';
import type { MailOutbox } from '../mail/index.js';
import type { Scheduler } from './create-scheduler.js';
import type { JobHandler } from './job-handler.js';

/** Where services put mail: a `mail.send` job, inserted in the transaction of the change that causes it. */
export function mailOutbox(scheduler: Pick<Scheduler, 'enqueue'>): MailOutbox {
  return {
    async queue(tx, job) {
      await scheduler.enqueue('mail.send', job, { tx });
    },
  };
}

/** Where a sign-out puts its Logout Tokens: `backchannel.logout` jobs, inserted in the sign-out's transaction. */
export function logoutOutbox(scheduler: Pick<Scheduler, 'enqueue'>): LogoutOutbox {
  return {
    async queue(tx, job) {
      await scheduler.enqueue('backchannel.logout', job, { tx });
    },
  };
}

/**
 * The handlers of the jobs the areas define (the scheduled cleanup jobs are
 * the scheduler's own). An instance with email.enabled false has no
 * `mail.send` handler and leaves those jobs to one that sends (docs/scheduler.md).
 */
export function wireJobs(
  scheduler: Pick<Scheduler, 'registerHandler'>,
  handlers: { mailSend: MailSendJob | null; backchannelLogout: JobHandler<'backchannel.logout'> },
): void {
  if (handlers.mailSend) scheduler.registerHandler('mail.send', handlers.mailSend.handle);
  scheduler.registerHandler('backchannel.logout', handlers.backchannelLogout);
}
