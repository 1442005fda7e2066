import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';

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
 *
 * nodemailer (40 modules, 0.6 MB) is loaded with the first mail, not at start: most starts of a
 * service send none (issue 26, the time a start takes to be ready). Creating a transport neither
 * connects nor checks the server, so making it then changes nothing else.
 */
export function createMailer(options: MailerOptions): Mailer {
  let transport: Promise<Transporter> | undefined;
  let closed = false;
  const transporter = (): Promise<Transporter> =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) => {
      const made: Transporter =
        options.smtpUrl !== undefined
          ? nodemailer.createTransport(options.smtpUrl)
          : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
      // Closed while it loaded: closed now.
      if (closed) made.close();
      return made;
    }));
  const close = (): void => {
    closed = true;
    void transport?.then((t) => t.close());
  };
  if (options.smtpUrl !== undefined) {
    return {
      async send(mail) {
        const info = await (await transporter()).sendMail({ from: options.from, ...mail });
        return String(info.messageId);
      },
      close,
    };
  }
  return {
    async send(mail) {
      const info = await (await transporter()).sendMail({ from: options.from, ...mail });
      mkdirSync(options.outboxDir, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replaceAll(':', '-')}-${randomBytes(4).toString('hex')}.eml`;
      const path = join(options.outboxDir, name);
      // The mail holds a one-time code: readable by the owner only.
      writeFileSync(path, info.message as Buffer, { mode: 0o600 });
      return path;
    },
    close,
  };
}
