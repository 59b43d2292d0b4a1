import { readSecretFile, writeSecretEntry } from '../infra/secret-file';

/**
 * The inbox sources' secrets, kept out of the database in `<data dir>/secrets/inbox.json` (0600): per team the IMAP
 * password and the inbound e-mail callback's signing secret.
 */
export interface InboxSecrets {
  imapPassword?: string;
  webhookSecret?: string;
}

const NAME = 'inbox';

export function readInboxSecrets(dataDir: string, teamId: string): InboxSecrets {
  return readSecretFile<InboxSecrets>(dataDir, NAME)[teamId] ?? {};
}

/** Sets (a string) or removes (null) some of a team's secrets; the others are kept. */
export function updateInboxSecrets(dataDir: string, teamId: string, patch: { [K in keyof InboxSecrets]?: string | null }): void {
  const next: InboxSecrets = { ...readInboxSecrets(dataDir, teamId) };
  for (const [k, v] of Object.entries(patch) as [keyof InboxSecrets, string | null | undefined][]) {
    if (v === null) delete next[k];
    else if (v !== undefined) next[k] = v;
  }
  writeSecretEntry(dataDir, NAME, teamId, Object.keys(next).length ? next : null);
}
