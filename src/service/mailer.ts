import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Sends the mail; resolves to where it went (a message id, or the .eml file's path). */
  send(mail: Mail): Promise<string>;
  close(): void;
}

export interface MailerOptions {
  /** `smtp://user:pass@host:port` or `smtps://...`; when absent, mail goes to the outbox. */
  smtpUrl?: string | undefined;
  /** Directory the .eml files are written to when no SMTP server is configured. */
  outboxDir: string;
  from: string;
}

/**
 * SMTP through nodemailer when configured; otherwise each message is written as an RFC 822
 * `.eml` file into the outbox, so a fresh install works without a mail server and an operator
 * can read (or forward) the mail by hand.
 */
export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl !== undefined) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        const info = await transport.sendMail({ from: options.from, ...mail });
        return String(info.messageId);
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: options.from, ...mail });
      mkdirSync(options.outboxDir, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replaceAll(':', '-')}-${randomBytes(4).toString('hex')}.eml`;
      const path = join(options.outboxDir, name);
      // The mail holds a one-time code: readable by the owner only.
      writeFileSync(path, info.message as Buffer, { mode: 0o600 });
      return path;
    },
    close: () => transport.close(),
  };
}
