import { OutboundRefused } from '../outbound/policy';
import type { SmtpSettings } from '../store/invoices/smtp';
import { transportFor } from './sender';
import { readSmtpPassword } from './smtp-secrets';

/**
 * A test message through a team's saved mail server (Team settings → "Send a test message", `POST /app/smtp/test`,
 * docs/decisions/0118): the transport the invoice e-mails use (sender.ts), with waits short enough for a person
 * looking at the form. It goes out at once, outside the invoice e-mail queue: nothing is retried or recorded. A
 * failure is said as what went wrong at the mail server, with the server's own answer (or the network's) beside it.
 */

const TEST_WAITS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

export interface SmtpTestMessage {
  to: string;
  teamName: string;
  dataDir: string | undefined;
  /** Whether the data dir holds one team only ($FINOPS_SMTP_PASSWORD without $FINOPS_SMTP_HOST serves only such a one). */
  singleTeam: boolean;
}

export interface SmtpTestSentInfo {
  messageId: string;
  response: string;
}

/** The mail server did not take the test message: `message` says why in plain words, `detail` in its own. */
export class SmtpTestFailure extends Error {
  constructor(
    message: string,
    readonly detail: string,
  ) {
    super(message);
    this.name = 'SmtpTestFailure';
  }
}

export async function sendSmtpTest(settings: SmtpSettings, teamId: string, message: SmtpTestMessage): Promise<SmtpTestSentInfo> {
  let transport: Awaited<ReturnType<typeof transportFor>>;
  try {
    transport = await transportFor(
      settings,
      readSmtpPassword(message.dataDir, teamId, process.env, { ...settings, singleTeam: message.singleTeam }),
      TEST_WAITS,
    );
  } catch (err) {
    throw failureOf(err, settings);
  }
  try {
    const info = await transport.sendMail({
      from: { name: settings.fromName ?? message.teamName, address: settings.fromAddress },
      to: message.to,
      subject: `Test message from ${message.teamName} (Finops Desk)`,
      text: [
        `This message was sent from Finops Desk to test the mail server of ${message.teamName}.`,
        '',
        `It went out through ${settings.host}:${settings.port} from ${settings.fromAddress}, as the team's invoice`,
        'e-mails do. Nothing needs to be done with it.',
      ].join('\n'),
      headers: { 'X-Finops-Test': '1' },
    });
    return { messageId: info.messageId, response: info.response };
  } catch (err) {
    throw failureOf(err, settings);
  } finally {
    transport.close();
  }
}

interface MailerError {
  code?: string;
  message?: string;
  response?: string;
  responseCode?: number;
}

/** nodemailer's error, said for the person who set the server up. */
export function failureOf(err: unknown, settings: Pick<SmtpSettings, 'host' | 'port'>): SmtpTestFailure {
  const e = (err ?? {}) as MailerError;
  const at = `${settings.host}:${settings.port}`;
  const raw = e.message ?? String(err);
  const detail = e.response ?? raw;
  if (err instanceof OutboundRefused) return new SmtpTestFailure(`This server may not connect to ${at}`, raw);
  if (e.code === 'EDNS' || e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN')
    return new SmtpTestFailure(`No mail server named ${settings.host} was found`, detail);
  if (/ECONNREFUSED/.test(raw)) {
    return new SmtpTestFailure(`Nothing at ${at} takes connections: check the server and the port`, detail);
  }
  if (e.code === 'ETIMEDOUT' || /timeout|timed out/i.test(raw)) {
    return new SmtpTestFailure(`${at} did not answer in time: check the server, the port and the security mode`, detail);
  }
  if (e.code === 'EAUTH') return new SmtpTestFailure('The mail server refused the user name or password', detail);
  if (e.code === 'ETLS' || /TLS|SSL|wrong version number/i.test(raw)) {
    return new SmtpTestFailure(`The secure connection to ${at} failed: check the security mode and the port`, detail);
  }
  if (typeof e.responseCode === 'number') {
    return new SmtpTestFailure(`The mail server refused the message (${e.responseCode})`, detail);
  }
  return new SmtpTestFailure(`The mail server at ${at} could not take the message`, detail);
}
