import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer } from '../../src/mail/index.js';

/** The SMTP mailer against a real SMTP server that asks for a login (email.smtp.user and password). */
describe('createSmtpMailer', () => {
  let server: SMTPServer;
  let port: number;
  const logins: { username?: string; password?: string | null }[] = [];
  const received: ParsedMail[] = [];

  beforeAll(async () => {
    server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        logins.push({ username: auth.username, password: auth.password });
        if (auth.password !== 'smtp-secret') {
          callback(new Error('Invalid username or password'));
          return;
        }
        callback(null, { user: auth.username });
      },
      onData(stream, _session, callback) {
        simpleParser(stream).then((mail) => {
          received.push(mail);
          callback();
        }, callback);
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const mailer = (user: string | null, password: string | null) =>
    createSmtpMailer({
      enabled: true,
      from: 'Example ID <id@example.com>',
      smtp: { host: '127.0.0.1', port, secure: false, user, password },
    });
  const mail = { to: 'ada@example.com', locale: 'de', subject: 'Betreff', text: 'Text', html: '<p>Text</p>' };

  it('logs in with email.smtp.user and password, and sends text and HTML from email.from', async () => {
    const sender = mailer('mailer', 'smtp-secret');
    await sender.send(mail);
    sender.close();
    expect(logins.at(-1)).toEqual({ username: 'mailer', password: 'smtp-secret' });
    const [sent] = received.slice(-1);
    expect(sent.from?.text).toBe('"Example ID" <id@example.com>');
    expect(sent.subject).toBe('Betreff');
    expect(sent.text?.trim()).toBe('Text');
    expect(sent.html).toBe('<p>Text</p>');
    expect(sent.headers.get('content-language')).toBe('de');
  });

  it('fails the send when the server refuses the login', async () => {
    const sender = mailer('mailer', 'wrong');
    await expect(sender.send(mail)).rejects.toThrow(/Invalid login/);
    sender.close();
    expect(logins.at(-1)).toEqual({ username: 'mailer', password: 'wrong' });
  });

  it('fails the send of a user without a password before the server is asked (validate warns about it)', async () => {
    const before = logins.length;
    const sender = mailer('mailer', null);
    await expect(sender.send(mail)).rejects.toThrow(/Missing credentials/);
    sender.close();
    expect(logins).toHaveLength(before);
  });

  it('does not log in without email.smtp.user: a server that requires a login refuses the mail', async () => {
    const before = received.length;
    const sender = mailer(null, null);
    await expect(sender.send(mail)).rejects.toThrow(/Authentication Required|530/);
    sender.close();
    expect(received).toHaveLength(before);
  });
});
