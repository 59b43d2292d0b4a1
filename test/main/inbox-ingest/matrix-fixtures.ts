import os from 'node:os';
import type { TestApi } from '../../helpers/api';

/**
 * The inbox sources' routes in the authorization matrix (test/main/server/authorization-matrix.test.ts spreads these
 * into its tables). Setting where a team's receipts arrive is team administration: a key granted exactly the route's
 * scope (`inbox.write`), with no person behind it and without `apis.all`, is refused with 403
 * (docs/decisions/0150-inbox-ingestion.md); reading them is open to `inbox.read`.
 */

/** A source of the owner team to turn off: its callback (the path's {kind}). */
async function matrixCallback(api: TestApi, token: string): Promise<string> {
  await api.call('POST', '/app/inbox-sources/webhook', { token });
  return 'webhook';
}

export const INBOX_FIXTURES: Record<string, (api: TestApi, token: string) => Promise<string>> = {
  '/app/inbox-sources/{kind}': matrixCallback,
};

export const INBOX_BODIES: Record<string, unknown> = {
  'PUT /app/inbox-sources/folder': { path: os.tmpdir() },
  'PUT /app/inbox-sources/imap': { host: '127.0.0.1', port: 9, security: 'none', user: 'matrix' },
};

export const INBOX_REFUSED: Record<string, number> = Object.fromEntries(
  [
    'PUT /app/inbox-sources/folder',
    'PUT /app/inbox-sources/imap',
    'POST /app/inbox-sources/webhook',
    'DELETE /app/inbox-sources/{kind}',
    'POST /app/inbox-sources/fetch',
  ].map((op) => [op, 403]),
);
