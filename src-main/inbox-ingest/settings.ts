import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { dataDirOf } from '../infra/blob-store';
import { watchedFolderProblem } from '../operator/inbox-roots';
import { canonicalHost } from '../outbound/allowance';
import type { Db } from '../store/db';
import { InvalidReference } from '../store/errors';
import { type IngestedEntry, recentIngestions } from '../store/inbox/ingest';
import {
  getInboxSource,
  type ImapConfig,
  type InboxSource,
  type InboxSourceKind,
  removeInboxSource,
  setInboxSource,
} from '../store/inbox/sources';
import { readInboxSecrets, updateInboxSecrets } from './secrets';

/**
 * Setting a team's inbox sources, the same for `finops inbox …` and `/app/inbox-sources` (owner only): the watched
 * folder, the IMAP mailbox (its password to the data dir's secret file) and the inbound e-mail callback (a random
 * address in its URL and a signing secret, shown once when made). docs/decisions/0150-inbox-ingestion.md.
 */

/** The callback's URL path under the server (the same under /webhooks). */
export const callbackPath = (address: string) => `/webhook/inbox/${address}`;

/** An absolute path to a folder this process can read, under a root the operator allows (operator/inbox-roots.ts). */
export function setWatchedFolder(db: Db, teamId: string, folder: string, dataDir = dataDirOf(db)): InboxSource<'folder'> {
  if (!path.isAbsolute(folder)) throw new InvalidReference('path', `path: give an absolute path (got ${folder})`);
  const resolved = path.resolve(folder);
  const problem = watchedFolderProblem(resolved, dataDir);
  if (problem) throw new InvalidReference('path', `path: ${problem}`);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(resolved);
    fs.accessSync(resolved, fs.constants.R_OK | fs.constants.X_OK);
  } catch {
    throw new InvalidReference('path', `path: ${resolved} is not a folder this server can read`);
  }
  if (!stat.isDirectory()) throw new InvalidReference('path', `path: ${resolved} is not a folder`);
  return setInboxSource(db, teamId, 'folder', { path: resolved });
}

/**
 * The mailbox to fetch; a password given replaces the stored one, none keeps it — unless the mailbox moved to another
 * server: a password goes only to the server it was given for, so it is dropped then (give it again).
 */
export function setImapMailbox(
  db: Db,
  dataDir: string,
  teamId: string,
  config: ImapConfig,
  password?: string,
): InboxSource<'imap'> {
  const before = getInboxSource(db, teamId, 'imap');
  if (password !== undefined) updateInboxSecrets(dataDir, teamId, { imapPassword: password });
  else if (before && canonicalHost(before.config.host) !== canonicalHost(config.host)) {
    updateInboxSecrets(dataDir, teamId, { imapPassword: null });
  }
  return setInboxSource(db, teamId, 'imap', config);
}

/** Makes (or replaces) the callback's address and secret; the secret is shown only in this answer. */
export function renewCallbackSecret(db: Db, dataDir: string, teamId: string): { address: string; secret: string; path: string } {
  const address = getInboxSource(db, teamId, 'webhook')?.address ?? crypto.randomBytes(16).toString('hex');
  const secret = `whsec_${crypto.randomBytes(24).toString('base64url')}`;
  updateInboxSecrets(dataDir, teamId, { webhookSecret: secret });
  setInboxSource(db, teamId, 'webhook', {}, { address });
  return { address, secret, path: callbackPath(address) };
}

/** Turns a source off (its secrets go too); whether it was on. */
export function removeSource(db: Db, dataDir: string, teamId: string, kind: InboxSourceKind): boolean {
  if (kind === 'imap') updateInboxSecrets(dataDir, teamId, { imapPassword: null });
  if (kind === 'webhook') updateInboxSecrets(dataDir, teamId, { webhookSecret: null });
  return removeInboxSource(db, teamId, kind);
}

interface RunState {
  lastRunAt: string | null;
  lastError: string | null;
}

export interface InboxSourcesView {
  folder: ({ path: string } & RunState) | null;
  imap: (ImapConfig & RunState & { passwordSet: boolean; lastUid: number | null }) | null;
  webhook: { path: string; secretSet: boolean } | null;
  recent: IngestedEntry[];
}

/** What the owner sees: the settings (never a secret), each source's last run and what came in lately. */
export function inboxSourcesView(db: Db, dataDir: string, teamId: string): InboxSourcesView {
  const secrets = readInboxSecrets(dataDir, teamId);
  const run = (s: InboxSource): RunState => ({ lastRunAt: s.lastRunAt, lastError: s.lastError });
  const folder = getInboxSource(db, teamId, 'folder');
  const imap = getInboxSource(db, teamId, 'imap');
  const webhook = getInboxSource(db, teamId, 'webhook');
  return {
    folder: folder ? { path: folder.config.path, ...run(folder) } : null,
    imap: imap
      ? { ...imap.config, ...run(imap), passwordSet: Boolean(secrets.imapPassword), lastUid: imap.cursor?.lastUid ?? null }
      : null,
    webhook: webhook?.address ? { path: callbackPath(webhook.address), secretSet: Boolean(secrets.webhookSecret) } : null,
    recent: recentIngestions(db, teamId),
  };
}
