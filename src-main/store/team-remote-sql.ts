/**
 * The team's enabled sync remote, its first by creation (docs/decisions/0140): one query for store/sync/remotes.ts,
 * which reads it as the team's remote, and store/invoices/settings.ts, which asks only whether there is one (such a
 * team's invoices are numbered by the remote, 0143). Here in the root so the invoice store needs nothing of
 * store/sync, which writes invoices through it.
 */
export const TEAM_REMOTE_SQL = 'SELECT * FROM sync_remotes WHERE team_id = ? AND enabled = 1 ORDER BY created_at LIMIT 1';
