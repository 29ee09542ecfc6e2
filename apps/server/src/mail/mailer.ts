import { desc, eq } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../db/client.ts';
import { mailOutbox } from '../db/schema.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * Timeouts of the SMTP conversation (ms), unless SMTP_URL sets them as query parameters
 * (`?connectionTimeout=…`): nodemailer waits minutes by default, and a reset request waits on it.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/** A mail the SMTP server did not take; the message names the server, never its credentials. */
export class MailDeliveryError extends Error {
  constructor(server: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`SMTP ${server} did not take the mail: ${reason}`, { cause });
    this.name = 'MailDeliveryError';
  }
}

/** Sends through SMTP_URL. */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  /** `host:port` for messages. */
  readonly server: string;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    const parsed = new URL(url);
    this.server = `${parsed.hostname}:${parsed.port || (parsed.protocol === 'smtps:' ? 465 : 587)}`;
    for (const [key, value] of Object.entries(SMTP_TIMEOUTS)) {
      if (!parsed.searchParams.has(key)) parsed.searchParams.set(key, String(value));
    }
    this.transport = nodemailer.createTransport(parsed.toString());
  }

  async send(mail: Mail): Promise<void> {
    try {
      await this.transport.sendMail({ from: this.from, ...mail });
    } catch (err) {
      throw new MailDeliveryError(this.server, err);
    }
  }

  /** Connects and greets the server (and logs in when the URL has credentials), sending nothing. */
  async verify(): Promise<void> {
    try {
      await this.transport.verify();
    } catch (err) {
      throw new MailDeliveryError(this.server, err);
    }
  }

  close(): void {
    this.transport.close();
  }
}

interface MailLog {
  info(obj: unknown, msg: string): void;
  error(obj: unknown, msg: string): void;
}

/**
 * Mail whose failure must not fail the request that caused it. A reset-code request answers the
 * same whether or not the email has an account, so an SMTP outage may neither surface as a 500 nor
 * tell who has an account: the failure goes to the log (naming the server and the recipient's
 * domain only), and the person can ask for a new code.
 */
export class LoggingMailer implements Mailer {
  constructor(
    private readonly inner: Mailer,
    private readonly log: MailLog,
  ) {}

  async send(mail: Mail): Promise<void> {
    try {
      await this.inner.send(mail);
    } catch (err) {
      const domain = mail.to.split('@').at(-1);
      this.log.error({ err: { message: (err as Error).message }, domain }, 'mail not delivered');
    }
  }
}

/** At start: says whether the SMTP server answers, so a wrong SMTP_URL shows before the first mail. */
export async function logSmtpCheck(mailer: SmtpMailer, log: MailLog): Promise<void> {
  try {
    await mailer.verify();
    log.info({ smtp: mailer.server }, `SMTP ${mailer.server} answers`);
  } catch (err) {
    log.error({ err: { message: (err as Error).message } }, 'SMTP check failed: mail will not be delivered');
  }
}

/** Without SMTP_URL mail lands in the database outbox, readable at /api/v1/dev/outbox. */
export class OutboxMailer implements Mailer {
  constructor(private readonly db: Db) {}

  async send(mail: Mail): Promise<void> {
    await this.db.insert(mailOutbox).values(mail);
  }

  async list(to?: string, limit = 50) {
    return this.db
      .select()
      .from(mailOutbox)
      .where(to ? eq(mailOutbox.to, to.toLowerCase()) : undefined)
      .orderBy(desc(mailOutbox.createdAt))
      .limit(limit);
  }
}
