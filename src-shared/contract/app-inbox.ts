import { z } from 'zod';
import { defineRoute } from './route';

/**
 * Where the team's receipts arrive besides uploads (internal app API under /app; docs/decisions/0150-inbox-ingestion.md):
 * a folder the server watches, a mailbox it fetches over IMAP, and the inbound e-mail callback a mail provider posts
 * to (`POST /webhook/inbox/{address}`, signed). Reading them is open to members; changing them is team administration:
 * a signed-in owner of the team, or a credential granted apis.all. Secrets are written, never answered back (the
 * callback's once, when made).
 */

const INTERNAL = 'Internal app API (under /app, not part of the public v1 contract).';
const ADMIN = `${INTERNAL} Team administration: a signed-in owner of the team, or a credential granted apis.all.`;

export const IMAP_SECURITY = ['tls', 'starttls', 'none'] as const;

const RunState = {
  lastRunAt: z.string().nullable(),
  lastError: z.string().nullable().describe('what the last look or fetch found wrong (null: it went well)'),
};

export const InboxSourcesBody = z
  .object({
    folder: z.object({ path: z.string(), ...RunState }).nullable(),
    imap: z
      .object({
        host: z.string(),
        port: z.number().int(),
        security: z.enum(IMAP_SECURITY),
        user: z.string(),
        mailbox: z.string(),
        passwordSet: z.boolean(),
        lastUid: z.number().int().nullable().describe('the UID of the last message fetched'),
        ...RunState,
      })
      .nullable(),
    webhook: z
      .object({
        path: z.string().describe('POST the raw message (message/rfc822) here, signed; also under /webhooks'),
        secretSet: z.boolean(),
      })
      .nullable(),
    recent: z.array(
      z.object({
        key: z.string().describe('message:<Message-ID> or file:<sha256>'),
        source: z.enum(['folder', 'imap', 'webhook']),
        outcome: z.enum(['created', 'duplicate', 'skipped']),
        inboxItemId: z.string().nullable(),
        detail: z.string().nullable(),
        createdAt: z.string(),
      }),
    ),
  })
  .meta({ id: 'AppInboxSources' });
export type InboxSourcesBody = z.infer<typeof InboxSourcesBody>;

export const FolderBody = z.strictObject({
  path: z.string().trim().min(1).max(4096).describe('an absolute path to a folder the server can read'),
});

export const ImapBody = z.strictObject({
  host: z.string().trim().min(1).max(253),
  port: z.number().int().min(1).max(65535),
  security: z
    .enum(IMAP_SECURITY)
    .default('tls')
    .describe('tls (993), starttls (143, upgrade required), none (a local server only)'),
  user: z.string().min(1).max(320),
  mailbox: z.string().min(1).max(300).default('INBOX'),
  password: z.string().min(1).max(1000).optional().describe('kept in the data dir secret file; omitted keeps the stored one'),
});

export const CallbackSecret = z
  .object({
    path: z.string(),
    secret: z.string().describe('shown only now: sign each call with it (X-Finops-Timestamp, X-Finops-Signature)'),
  })
  .meta({ id: 'AppInboxCallbackSecret' });

export const IntakeRun = z.object({
  data: z.array(
    z.object({
      kind: z.enum(['folder', 'imap']),
      busy: z.boolean().describe('another process was at it: nothing was done here'),
      created: z.number().int(),
      duplicates: z.number().int(),
      skipped: z.number().int(),
      error: z.string().nullable(),
    }),
  ),
});

const KindParams = z.object({ kind: z.enum(['folder', 'imap', 'webhook']) });

const read = { mount: '/app', tag: 'app: inbox', description: INTERNAL, scopes: ['inbox.read'] } as const;
const write = { mount: '/app', tag: 'app: inbox', description: ADMIN, scopes: ['inbox.write'] } as const;

export const appInboxRoutes = {
  get: defineRoute({
    ...read,
    method: 'GET',
    path: '/inbox-sources',
    summary: "The team's inbox sources (never a secret), their last run, and what came in lately",
    responses: { 200: InboxSourcesBody },
  }),
  putFolder: defineRoute({
    ...write,
    method: 'PUT',
    path: '/inbox-sources/folder',
    summary: 'Watch a folder: each receipt dropped there becomes an inbox item',
    body: FolderBody,
    responses: { 200: InboxSourcesBody },
  }),
  putImap: defineRoute({
    ...write,
    method: 'PUT',
    path: '/inbox-sources/imap',
    summary: 'Fetch a mailbox over IMAP: the attachments of each mail become inbox items',
    body: ImapBody,
    responses: { 200: InboxSourcesBody },
  }),
  renewCallback: defineRoute({
    ...write,
    method: 'POST',
    path: '/inbox-sources/webhook',
    summary: 'Make (or replace) the inbound e-mail callback’s signing secret; the address is kept',
    responses: { 200: CallbackSecret },
  }),
  remove: defineRoute({
    ...write,
    method: 'DELETE',
    path: '/inbox-sources/:kind',
    summary: 'Turn a source off (its secrets go too); what it took in stays. 404 when it was not on',
    params: KindParams,
    responses: { 200: InboxSourcesBody },
  }),
  fetch: defineRoute({
    ...write,
    method: 'POST',
    path: '/inbox-sources/fetch',
    summary: 'Look at the folder and fetch the mailbox now',
    responses: { 200: IntakeRun },
  }),
};
