import { parsers } from '../sandbox/pool';
import type { Intake } from './intake';
import type { MailRead } from './mail-read';

export { messageKeyOf } from './mail-read';

/**
 * A mail as the inbox takes it in: its identity (the Message-ID, or the hash of the whole message when it has none)
 * and its attachments judged as uploads, read in the parser sandbox (mail-read.ts, docs/decisions/0170): a message
 * that takes its reader past the mail job's time or memory limit rejects with ParserStopped, which the webhook
 * answers 422 and IMAP records as a message it gave up on.
 */
export type MailReceipts = MailRead;

/** Bytes that crossed from the worker (a Uint8Array) as the Buffer the store takes. */
const asBuffer = (u: Uint8Array) => (Buffer.isBuffer(u) ? u : Buffer.from(u.buffer, u.byteOffset, u.byteLength));

export async function readMail(raw: Buffer): Promise<MailReceipts> {
  const read = await parsers().run('mail', { raw });
  return {
    ...read,
    intakes: read.intakes.map((i): Intake => (i.ok ? { ok: true, file: { ...i.file, bytes: asBuffer(i.file.bytes) } } : i)),
  };
}
