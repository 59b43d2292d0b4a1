import { z } from 'zod';
import { defineRoute } from './route';

/**
 * Backups of the data dir from the app (internal app API under /app; docs/decisions/0185-backups.md): the
 * Settings screen's last backup, "back up now" and restore with a confirmation. A backup holds every team of the
 * data dir, so these routes answer only on a data dir with one team (the desktop app, a one-team server), to an
 * owner of it (or a credential granted apis.all); elsewhere 403, as the server's operator backs up with
 * `finops backup`. The folder is the operator's setting (CLI): the app never names a path on the machine.
 */

const INTERNAL = 'Internal app API (under /app, not part of the public v1 contract).';
const ADMIN = `${INTERNAL} Data-dir administration: an owner of the only team on this server, or a credential granted apis.all; 403 on a server with several teams.`;

export const BackupRunView = z.object({
  id: z.string(),
  trigger: z.enum(['scheduled', 'manual', 'migration', 'restore', 'cli']),
  state: z.enum(['running', 'done', 'failed']),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  fileName: z.string().nullable().describe('the archive’s name in the backup folder'),
  size: z.number().int().nullable(),
  error: z.string().nullable(),
});

export const BackupFileView = z.object({
  name: z.string(),
  size: z.number().int(),
  createdAt: z.string(),
  trigger: z.string(),
});

export const BackupStatus = z
  .object({
    settings: z.object({
      enabled: z.boolean(),
      intervalHours: z.number().int(),
      keep: z.number().int(),
      includeSecrets: z.boolean(),
      folder: z.string().describe('where the archives go (set by the machine’s operator: finops backup settings --folder)'),
    }),
    lastBackup: BackupRunView.nullable().describe('the last backup that was made, or null'),
    lastRun: BackupRunView.nullable().describe('the last attempt, failed ones included'),
    backups: z.array(BackupFileView).describe('the archives in the backup folder, newest first'),
  })
  .meta({ id: 'AppBackupStatus' });
export type BackupStatus = z.infer<typeof BackupStatus>;

export const BackupSettingsPut = z.strictObject({
  enabled: z.boolean().optional(),
  intervalHours: z.number().int().min(1, 'at least 1 hour').max(8760, 'at most a year').optional(),
  keep: z.number().int().min(1, 'at least 1').max(1000, 'at most 1000').optional(),
});

export const RestoreBody = z.strictObject({
  name: z.string().regex(/^finops-[0-9TZ-]+-[a-z]+-[0-9a-f]{4}\.tar\.gz$/, 'must be the name of an archive in the backup folder'),
  confirm: z.literal('restore', { message: 'type "restore" to confirm: the data is replaced by the backup’s' }),
});

export const RestoreResult = z
  .object({
    restoredFrom: z.string(),
    createdAt: z.string().describe('when the backup was made'),
    safetyBackup: z.string().describe('the archive of the data as it was just before the restore'),
    rows: z.number().int(),
    files: z.number().int(),
  })
  .meta({ id: 'AppRestoreResult' });
export type RestoreResult = z.infer<typeof RestoreResult>;

const base = { mount: '/app', tag: 'app: backups' } as const;

export const appBackupRoutes = {
  status: defineRoute({
    ...base,
    method: 'GET',
    path: '/backups',
    summary: 'The data dir’s backup settings, last backup and the archives kept',
    description: ADMIN,
    scopes: ['teams.read'],
    responses: { 200: BackupStatus },
  }),
  settings: defineRoute({
    ...base,
    method: 'PUT',
    path: '/backups/settings',
    summary: 'Turn scheduled backups on or off, how often, how many to keep',
    description: ADMIN,
    scopes: ['teams.write'],
    body: BackupSettingsPut,
    responses: { 200: BackupStatus },
  }),
  now: defineRoute({
    ...base,
    method: 'POST',
    path: '/backups',
    summary: 'Back up now (409 while another backup is being made)',
    description: ADMIN,
    scopes: ['teams.write'],
    responses: { 200: BackupStatus },
  }),
  restore: defineRoute({
    ...base,
    method: 'POST',
    path: '/backups/restore',
    summary: 'Replace the data with a backup’s (the current state is backed up first); other requests wait meanwhile',
    description: `${ADMIN} The archive is checked whole (every entry against its manifest, the database’s integrity and row counts) before anything is replaced.`,
    scopes: ['teams.write'],
    body: RestoreBody,
    responses: { 200: RestoreResult },
  }),
};
