import { simpleParser } from 'mailparser';
import { sha256 } from '../documents/storage';
import { type Intake, intakeFile } from './intake';

/**
 * A mail as the inbox takes it in: its identity (the Message-ID, or the hash of the whole message when it has none)
 * and its attachments judged as uploads. Parts an HTML body shows inline by reference (`cid:` logos, signatures) are
 * not attachments; a photo attached inline by a phone is.
 */
export interface MailReceipts {
  messageKey: string;
  subject: string | null;
  from: string | null;
  intakes: Intake[];
  /** It has a Message-ID or a From header: something a mail server handed over, not arbitrary bytes. */
  looksLikeMail: boolean;
}

export const messageKeyOf = (messageId: string) => `message:${messageId.trim()}`;

export async function readMail(raw: Buffer): Promise<MailReceipts> {
  const mail = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true, skipImageLinks: true });
  const parts = mail.attachments.filter((a) => !a.related);
  return {
    messageKey: mail.messageId ? messageKeyOf(mail.messageId) : `message:sha256:${sha256(raw)}`,
    subject: mail.subject ?? null,
    from: mail.from?.text ?? null,
    looksLikeMail: Boolean(mail.messageId) || mail.headers.has('from'),
    intakes: await Promise.all(parts.map((a, i) => intakeFile(a.content, a.filename ?? `attachment-${i + 1}`))),
  };
}
