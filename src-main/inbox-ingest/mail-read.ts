import { simpleParser } from 'mailparser';
import { sha256 } from '../infra/blob-store';
import { type Intake, intakeFile } from './intake';

/**
 * A mail read in the parser sandbox (docs/decisions/0170): mailparser's MIME parse and each attachment judged as an
 * upload (intake.ts), off the server's event loop. Parts an HTML body shows inline by reference (`cid:` logos,
 * signatures) are not attachments; a photo attached inline by a phone is. mail.ts is what the inbox calls.
 */
export interface MailRead {
  messageKey: string;
  subject: string | null;
  from: string | null;
  intakes: Intake[];
  /** It has a Message-ID or a From header: something a mail server handed over, not arbitrary bytes. */
  looksLikeMail: boolean;
}

export const messageKeyOf = (messageId: string) => `message:${messageId.trim()}`;

export async function readMailIn(raw: Uint8Array): Promise<MailRead> {
  const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const mail = await simpleParser(bytes, {
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    skipImageLinks: true,
  });
  const parts = mail.attachments.filter((a) => !a.related);
  return {
    messageKey: mail.messageId ? messageKeyOf(mail.messageId) : `message:sha256:${sha256(bytes)}`,
    subject: mail.subject ?? null,
    from: mail.from?.text ?? null,
    looksLikeMail: Boolean(mail.messageId) || mail.headers.has('from'),
    intakes: await Promise.all(parts.map((a, i) => intakeFile(a.content, a.filename ?? `attachment-${i + 1}`))),
  };
}
