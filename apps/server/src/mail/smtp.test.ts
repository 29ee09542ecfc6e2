import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, TEST_PASSWORD } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { startSilentServer, startSmtp, type TestSmtp } from '../../test/smtp.ts';
import { until } from '../../test/sockets.ts';
import { LoggingMailer, logSmtpCheck, MailDeliveryError, SmtpMailer } from './mailer.ts';

// Mail through a real SMTP conversation: an SMTP server started here (smtp-server), parsed with
// mailparser, instead of the dev outbox.

let smtp: TestSmtp;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({
    SMTP_URL: smtp.url,
    DEV_OUTBOX: 'false',
    MAIL_FROM: 'Fanverse <no-reply@fanverse.test>',
  });
});
afterAll(async () => {
  await t?.stop();
  await smtp?.close();
});

/** Captures what the mailer logs. */
function memoryLog() {
  const lines: { level: string; obj: unknown; msg: string }[] = [];
  return {
    lines,
    info: (obj: unknown, msg: string) => lines.push({ level: 'info', obj, msg }),
    error: (obj: unknown, msg: string) => lines.push({ level: 'error', obj, msg }),
  };
}

describe('reset codes by SMTP', () => {
  it('mails the code to the account holder and the code resets the password', async () => {
    const user = await createUser(t);
    const res = await t.call('auth.code', { email: user.email });
    expect(res.status).toBe(200);
    await until(() => smtp.received.some((r) => r.rcpt.includes(user.email)));
    const { mail, rcpt } = smtp.received.find((r) => r.rcpt.includes(user.email))!;
    expect(rcpt).toEqual([user.email]);
    expect(mail.from?.value[0]?.address).toBe('no-reply@fanverse.test');
    expect(mail.subject).toBe('Fanverse: your password reset code');
    const code = /password is: (\d+)/.exec(mail.text ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);

    const reset = await t.call('auth.pass', { email: user.email, code, password: 'a-new-password-42' });
    expect(reset.status).toBe(200);
    expect((await t.call('auth.login', { login: user.username, password: 'a-new-password-42' })).status).toBe(
      200,
    );
    expect((await t.call('auth.login', { login: user.username, password: TEST_PASSWORD })).status).toBe(401);
  });

  it('sends nothing for an unknown email, with the same answer', async () => {
    const before = smtp.received.length;
    const res = await t.call('auth.code', { email: 'nobody-here@example.com' });
    expect(res.status).toBe(200);
    expect(smtp.received.length).toBe(before);
  });
});

describe('a failing SMTP server', () => {
  it('names the server and its reply in the error', async () => {
    const refusing = await startSmtp({ reject: 'Mailbox unavailable' });
    const mailer = new SmtpMailer(refusing.url, 'a@fanverse.test');
    try {
      const sent = mailer.send({ to: 'b@example.com', subject: 's', text: 't' });
      await expect(sent).rejects.toBeInstanceOf(MailDeliveryError);
      await expect(sent).rejects.toThrow(
        new RegExp(
          `SMTP ${refusing.url.slice('smtp://'.length)} did not take the mail: .*Mailbox unavailable`,
        ),
      );
    } finally {
      mailer.close();
      await refusing.close();
    }
  });

  it('gives up on a server that never answers instead of hanging the request', async () => {
    const silent = await startSilentServer();
    const mailer = new SmtpMailer(`${silent.url}/?greetingTimeout=300`, 'a@fanverse.test');
    try {
      await expect(mailer.send({ to: 'b@example.com', subject: 's', text: 't' })).rejects.toThrow(
        /did not take the mail: .*(Greeting never received|timeout)/i,
      );
    } finally {
      mailer.close();
      await silent.close();
    }
  });

  it('a reset request still answers 200 (no 500, nothing revealed) and the log says why no mail left', async () => {
    const refusing = await startSmtp({ reject: 'Service not available' });
    const down = await createTestApp({ SMTP_URL: refusing.url, DEV_OUTBOX: 'false' });
    try {
      const user = await createUser(down);
      const res = await down.call('auth.code', { email: user.email });
      expect(res.status).toBe(200);
      expect(res.body).toEqual((await down.call('auth.code', { email: 'nobody-here@example.com' })).body);
    } finally {
      await down.stop();
      await refusing.close();
    }
    const log = memoryLog();
    const failing = new SmtpMailer('smtp://127.0.0.1:1', 'a@fanverse.test');
    await new LoggingMailer(failing, log).send({ to: 'someone@example.org', subject: 's', text: 't' });
    expect(log.lines).toEqual([
      {
        level: 'error',
        obj: {
          err: {
            message: expect.stringMatching(/^SMTP 127\.0\.0\.1:1 did not take the mail: .*ECONNREFUSED/),
          },
          domain: 'example.org',
        },
        msg: 'mail not delivered',
      },
    ]);
    failing.close();
  });

  it('the start-up check says whether the SMTP server answers', async () => {
    const log = memoryLog();
    const ok = new SmtpMailer(smtp.url, 'a@fanverse.test');
    await logSmtpCheck(ok, log);
    ok.close();
    const refused = new SmtpMailer('smtp://127.0.0.1:1', 'a@fanverse.test');
    await logSmtpCheck(refused, log);
    refused.close();
    expect(log.lines.map((l) => `${l.level}: ${l.msg}`)).toEqual([
      `info: SMTP ${smtp.url.slice('smtp://'.length)} answers`,
      'error: SMTP check failed: mail will not be delivered',
    ]);
  });
});
