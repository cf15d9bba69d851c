import nodemailer from 'nodemailer';
import type { EmailConfig } from '../config/types.js';
import type { ComposedMail } from './compose-mail.js';

export interface OutgoingMail extends ComposedMail {
  to: string;
  locale: string;
}

export interface Mailer {
  /** Resolves once the SMTP server accepted the message; rejects when it is down or refuses (the job is then retried). */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * nodemailer over SMTP (`email.smtp`, from `email.from`). One connection per
 * message: mail is rare and a pool would hold a socket open for nothing.
 * Timeouts stay well inside a job's lease, so a silent server fails the
 * attempt instead of hanging the worker.
 */
export function createSmtpMailer(email: EmailConfig): Mailer {
  const { smtp } = email;
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    auth: smtp.user !== null ? { user: smtp.user, pass: smtp.password ?? '' } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(mail) {
      await transport.sendMail({
        from: email.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        // RFC 3834: an automatic message; out-of-office replies should not answer it.
        headers: { 'Auto-Submitted': 'auto-generated', 'Content-Language': mail.locale },
      });
    },
    close: () => transport.close(),
  };
}
