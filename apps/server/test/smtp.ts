import net from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Received {
  /** Envelope recipients (RCPT TO). */
  rcpt: string[];
  mail: ParsedMail;
}

export interface TestSmtp {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/**
 * An SMTP server (smtp-server) on a free loopback port that keeps every mail it takes, parsed by
 * mailparser. `reject` makes it refuse every mail with that SMTP reply text (code 550).
 */
export async function startSmtp(options: { reject?: string } = {}): Promise<TestSmtp> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          if (options.reject) {
            const err = Object.assign(new Error(options.reject), { responseCode: 550 });
            callback(err);
            return;
          }
          received.push({ rcpt: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A TCP port that accepts connections and never says a word (an SMTP server that hangs). */
export async function startSilentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => sockets.add(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
