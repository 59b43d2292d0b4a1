import { z } from 'zod';
import { defineRoute } from './route';

/**
 * The team's mail server for invoice e-mails (internal app API under /app; docs/decisions/0074, 0115): what
 * `finops smtp set|show|clear` does, for the Team settings screen. Reading is open to members who may read invoices;
 * changing it is team administration (a signed-in owner, or a credential granted apis.all). The password is written,
 * never answered back: it lives in the data dir's secret file, not in the database.
 */

const INTERNAL = 'Internal app API (under /app, not part of the public v1 contract).';
const ADMIN = `${INTERNAL} Team administration: a signed-in owner of the team, or a credential granted apis.all.`;

export const SMTP_SECURITY = ['tls', 'starttls', 'none'] as const;

export const SmtpView = z
  .object({
    data: z
      .object({
        host: z.string(),
        port: z.number().int(),
        security: z.enum(SMTP_SECURITY),
        username: z.string().nullable(),
        passwordSet: z.boolean().describe('whether the data dir holds a password for the team'),
        fromAddress: z.string(),
        fromName: z.string().nullable(),
        updatedAt: z.string(),
      })
      .nullable()
      .describe('null: no mail server, invoice e-mails wait for sync (awaiting_sync)'),
  })
  .meta({ id: 'AppSmtpSettings' });
export type SmtpView = z.infer<typeof SmtpView>;

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

export const SmtpPut = z.strictObject({
  host: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(253)
    .regex(/^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/, 'must be a host name such as smtp.example.com'),
  port: z.number().int().min(1, 'must be 1 to 65535').max(65535, 'must be 1 to 65535'),
  security: z
    .enum(SMTP_SECURITY)
    .default('starttls')
    .describe('tls: TLS from the start (465); starttls: upgrade required (587); none: plain (a local relay only)'),
  username: z.preprocess(emptyToNull, z.string().max(320).nullable()).default(null),
  password: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe('kept in the data dir secret file; omitted keeps the stored one; without a user name it is removed'),
  fromAddress: z.email('must be a valid email address').max(254),
  fromName: z.preprocess(emptyToNull, z.string().trim().max(200).nullable()).default(null),
});
export type SmtpPut = z.infer<typeof SmtpPut>;

export const SmtpTest = z.strictObject({
  to: z
    .email('must be a valid email address')
    .max(254)
    .optional()
    .describe('default: the e-mail of the person signed in (of the team’s owner for a credential of no person)'),
});
export type SmtpTest = z.infer<typeof SmtpTest>;

export const SmtpTestSent = z
  .object({
    data: z.object({
      to: z.string(),
      messageId: z.string(),
      response: z.string().describe('what the mail server answered on taking the message, e.g. "250 OK: queued"'),
    }),
  })
  .meta({ id: 'AppSmtpTestSent' });
export type SmtpTestSent = z.infer<typeof SmtpTestSent>;

const base = { mount: '/app', tag: 'app: smtp' } as const;

export const appSmtpRoutes = {
  get: defineRoute({
    ...base,
    method: 'GET',
    path: '/smtp',
    summary: 'The team’s mail server for invoice e-mails (never the password)',
    description: INTERNAL,
    scopes: ['invoices.read'],
    responses: { 200: SmtpView },
  }),
  put: defineRoute({
    ...base,
    method: 'PUT',
    path: '/smtp',
    summary: 'Set the mail server; e-mails waiting for sync are handed to it',
    description: ADMIN,
    scopes: ['invoices.write'],
    body: SmtpPut,
    responses: { 200: SmtpView },
  }),
  remove: defineRoute({
    ...base,
    method: 'DELETE',
    path: '/smtp',
    summary: 'Remove the mail server and its password; queued e-mails wait for sync again (404 when none was set)',
    description: ADMIN,
    scopes: ['invoices.write'],
    responses: { 200: SmtpView },
  }),
  test: defineRoute({
    ...base,
    method: 'POST',
    path: '/smtp/test',
    summary:
      'Send a test message through the saved mail server (409 when none is saved; 502 with the mail server’s own answer when it fails)',
    description: `${ADMIN} The message goes out at once, not through the invoice e-mail queue (docs/decisions/0118).`,
    scopes: ['invoices.write'],
    body: SmtpTest,
    responses: { 200: SmtpTestSent },
  }),
};
