import { ImapFlow, type ImapFlowOptions } from 'imapflow';
import { socketTarget } from '../outbound/policy';
import type { Db } from '../store/db';
import type { BlobStore } from '../store/files/stored-files';
import { ingestToInbox, isIngested } from '../store/inbox/ingest';
import { type ImapConfig, type ImapCursor, type InboxSource, recordInboxSourceRun } from '../store/inbox/sources';
import { sortIntakes } from './intake';
import { messageKeyOf, readMail } from './mail';

/**
 * One fetch of a team's mailbox over IMAP (docs/decisions/0150-inbox-ingestion.md): the mailbox is opened read-only
 * (nothing is marked, moved or deleted), the messages after the cursor are listed with their Message-ID, and each
 * one the team has not taken in is downloaded and its attachments become inbox items. The cursor (UIDVALIDITY and
 * the last UID) is saved after each message, so a fetch cut short resumes where it stopped; the ledger keeps a mail
 * to one set of items even when the cursor is lost (another UIDVALIDITY, a mailbox set again).
 */

export interface MailboxFetch {
  messages: number;
  created: number;
  duplicates: number;
  skipped: number;
}

/** A message larger than this is not downloaded (a receipt is at most 20 MiB, base64 makes it ~27). */
const MAX_MESSAGE_BYTES = 40 * 1024 * 1024;

/**
 * A client of the team's mailbox, connected to an address the outbound policy checked (outbound/policy.ts: a team
 * cannot point it at loopback or a private network the operator did not allow), the host name kept for TLS.
 */
export async function imapClient(config: ImapConfig, password: string, timeoutMs = 30_000): Promise<ImapFlow> {
  const target = await socketTarget(config.host, config.port);
  const options: ImapFlowOptions & { doSTARTTLS?: boolean; servername?: string } = {
    host: target.host,
    ...(target.servername ? { servername: target.servername } : {}),
    port: config.port,
    secure: config.security === 'tls',
    // starttls: the upgrade is required (a server that does not offer it is refused); none: never attempted.
    doSTARTTLS: config.security === 'starttls' ? true : config.security === 'none' ? false : undefined,
    auth: { user: config.user, pass: password },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: 5 * timeoutMs,
  };
  return new ImapFlow(options);
}

export async function fetchMailbox(
  db: Db,
  blobs: BlobStore,
  source: InboxSource<'imap'>,
  password: string,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<MailboxFetch> {
  const result: MailboxFetch = { messages: 0, created: 0, duplicates: 0, skipped: 0 };
  let client: ImapFlow;
  try {
    client = await imapClient(source.config, password, options.timeoutMs);
  } catch (err) {
    throw new Error(describeImapError(err, source.config));
  }
  client.on('error', () => {}); // a socket error rejects the command in flight; the fetch reports it
  // A stopping server does not wait for a slow mailbox: the cursor keeps what was done.
  const abort = () => client.close();
  options.signal?.addEventListener('abort', abort, { once: true });
  try {
    await client.connect();
    const lock = await client.getMailboxLock(source.config.mailbox, { readOnly: true });
    try {
      const mailbox = client.mailbox;
      if (!mailbox) throw new Error(`the mailbox ${source.config.mailbox} could not be opened`);
      const uidValidity = String(mailbox.uidValidity);
      const from = source.cursor?.uidValidity === uidValidity ? source.cursor.lastUid : 0;
      const listed: { uid: number; messageId?: string; size?: number }[] = [];
      if (mailbox.exists > 0) {
        for await (const m of client.fetch(`${from + 1}:*`, { uid: true, envelope: true, size: true }, { uid: true })) {
          // `n:*` always names the newest message, even one at or below the cursor.
          if (m.uid > from) listed.push({ uid: m.uid, messageId: m.envelope?.messageId, size: m.size });
        }
      }
      listed.sort((a, b) => a.uid - b.uid);
      for (const m of listed) {
        result.messages++;
        await takeMessage(client, db, blobs, source.teamId, { ...m, uidValidity }, result);
        const cursor: ImapCursor = { uidValidity, lastUid: m.uid };
        recordInboxSourceRun(db, source.teamId, 'imap', { error: null, cursor });
      }
      if (listed.length === 0) recordInboxSourceRun(db, source.teamId, 'imap', { error: null });
    } finally {
      lock.release();
    }
    await client.logout();
  } catch (err) {
    throw new Error(describeImapError(err, source.config));
  } finally {
    options.signal?.removeEventListener('abort', abort);
    client.close();
  }
  return result;
}

/** What the owner reads as the source's last error: imapflow's own message is often just "Command failed". */
export function describeImapError(err: unknown, config: ImapConfig): string {
  const e = err as { message?: string; code?: string; authenticationFailed?: boolean; responseText?: string };
  const server = `${config.host}:${config.port}`;
  if (e.authenticationFailed)
    return `${server} refused the login of ${config.user}${e.responseText ? ` (${e.responseText})` : ''}`;
  if (e.code && /^E[A-Z]+$/.test(e.code)) return `${server} cannot be reached (${e.code})`;
  return [e.message ?? String(err), e.responseText].filter(Boolean).join(': ');
}

async function takeMessage(
  client: ImapFlow,
  db: Db,
  blobs: BlobStore,
  teamId: string,
  m: { uid: number; uidValidity: string; messageId?: string; size?: number },
  result: MailboxFetch,
): Promise<void> {
  const messageKey = m.messageId ? messageKeyOf(m.messageId) : `message:imap:${m.uidValidity}:${m.uid}`;
  if (isIngested(db, teamId, messageKey)) {
    result.duplicates++;
    return;
  }
  const giveUp = (why: string) => {
    ingestToInbox(db, teamId, { source: 'imap', messageKey, files: [], messageDetail: why }, blobs);
    result.skipped++;
  };
  if ((m.size ?? 0) > MAX_MESSAGE_BYTES) return giveUp('larger than 40 MiB: not downloaded');
  const fetched = await client.fetchOne(String(m.uid), { source: true }, { uid: true });
  if (fetched === false || !fetched.source) return; // expunged meanwhile
  let mail: Awaited<ReturnType<typeof readMail>>;
  try {
    mail = await readMail(fetched.source);
  } catch (err) {
    return giveUp(`could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  const r = ingestToInbox(db, teamId, { source: 'imap', messageKey: mail.messageKey, ...sortIntakes(mail.intakes) }, blobs);
  if (r.duplicateMessage) result.duplicates++;
  result.created += r.created.length;
  result.duplicates += r.duplicates.length;
  result.skipped += r.skipped.length;
}
