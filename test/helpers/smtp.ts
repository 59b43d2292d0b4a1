import net from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';

/** A message the test SMTP server accepted: envelope and raw text. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  messageId: string | undefined;
  subject: string | undefined;
}

export interface TestSmtp {
  port: number;
  received: ReceivedMail[];
  /** Called when a message's data starts arriving; return 'reject' to answer 554, 'defer' to answer 451, 'hold' to never finish. */
  onMessage?: (index: number, session: SMTPServerSession) => 'accept' | 'reject' | 'defer' | 'hold';
  close(): Promise<void>;
}

function header(raw: string, name: string): string | undefined {
  const m = new RegExp(`^${name}:\\s*(.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(raw);
  return m?.[1]?.replace(/\r?\n[ \t]+/g, ' ').trim();
}

/**
 * A real SMTP server on 127.0.0.1 (the smtp-server package), plain text, no authentication: it counts what it
 * accepts. A message counts once the server answers 250 for it, as a mail server commits it.
 */
export async function startTestSmtp(): Promise<TestSmtp> {
  let seen = 0;
  const smtp: TestSmtp = {
    port: 0,
    received: [],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback: (err?: Error | null) => void) {
      const index = seen++;
      const decision = smtp.onMessage?.(index, session) ?? 'accept';
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (decision === 'hold') return;
        if (decision === 'reject') {
          const err = new Error('Recipient refused') as Error & { responseCode: number };
          err.responseCode = 554;
          return callback(err);
        }
        if (decision === 'defer') {
          const err = new Error('Try again later') as Error & { responseCode: number };
          err.responseCode = 451;
          return callback(err);
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        smtp.received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          messageId: header(raw, 'Message-ID'),
          subject: header(raw, 'Subject'),
        });
        callback(null);
      });
    },
  });
  // A client that dies mid-message resets its connection: that is what the tests provoke, not a server failure.
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') throw err;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  smtp.port = (server.server.address() as { port: number }).port;
  return smtp;
}

/** A loopback port nothing listens on (taken, then let go): a mail server that is not there. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
