import type { Notification, NotificationStatus } from '../../../src-shared/contract/notifications';
import type { Db } from '../db';
import { InvalidReference, NotFound } from '../errors';
import { listFingerprint } from '../list/cursor';
import { keysetPage } from '../list/keyset';
import { type Writer, write } from '../write';

/**
 * Notifications (docs/decisions/0059-notifications.md). A notification is addressed to one member (`user_id`) or to
 * the whole team (`user_id` NULL). What a user sees, and may change, is their own and the team's. Each member reads
 * a team-wide notification for themselves (docs/decisions/0148-notification-read-state.md): their status of it is
 * kept in `notification_reads`, and the notification's own status — what a member who never touched it sees, and
 * what syncs — changes only without a member (a team with none, a sync pull). Who "the user" is for a credential is
 * decided in one place, store/users.ts `actingUserId` (a user's own credential: that user; an API key: the team's
 * owner); callers pass its result here (undefined when the team has no member: the team's notifications only).
 *
 * Other areas create notifications with `createNotification` (imports: transactions_created; invoices; workflows),
 * inside their own write when they have one, so a notification never outlives a rolled-back action.
 */

interface Row {
  id: string;
  team_id: string;
  user_id: string | null;
  type: string;
  priority: number;
  source: 'system' | 'user';
  status: NotificationStatus;
  metadata: string;
  last_used_at: string | null;
  created_at: string;
}

/** The notification as `userId` sees it: their own status of a team-wide one, else the record's. */
function selectFor(userId: string | undefined): { sql: string; params: Record<string, unknown> } {
  if (!userId) return { sql: 'SELECT n.* FROM notifications n', params: {} };
  return {
    sql: `SELECT n.id, n.team_id, n.user_id, n.type, n.priority, n.source, n.metadata, n.created_at,
        coalesce(r.status, n.status) AS status, coalesce(r.last_used_at, n.last_used_at) AS last_used_at
      FROM notifications n
      LEFT JOIN notification_reads r ON r.notification_id = n.id AND r.user_id = @user AND n.user_id IS NULL`,
    params: { user: userId },
  };
}

function toNotification(r: Row): Notification {
  let metadata: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(r.metadata) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) metadata = parsed as Record<string, unknown>;
  } catch {
    metadata = {};
  }
  return {
    id: r.id,
    createdAt: r.created_at,
    teamId: r.team_id,
    userId: r.user_id,
    type: r.type,
    priority: r.priority,
    source: r.source,
    status: r.status,
    metadata,
    lastUsedAt: r.last_used_at,
  };
}

/** One notification by id, whoever it is addressed to (the change feed's reader). */
export function getNotification(db: Db, teamId: string, id: string): Notification {
  const row = db.prepare('SELECT * FROM notifications WHERE team_id = ? AND id = ?').get(teamId, id) as Row | undefined;
  if (!row) throw new NotFound('notification', id);
  return toNotification(row);
}

/** SQL condition: addressed to this user or to the whole team. */
function audience(userId: string | undefined): { sql: string; params: Record<string, unknown> } {
  return userId
    ? { sql: '(n.user_id = @user OR n.user_id IS NULL)', params: { user: userId } }
    : { sql: 'n.user_id IS NULL', params: {} };
}

export interface NewNotification {
  /** A caller-chosen id (a notification pulled from a sync remote keeps its id). */
  id?: string;
  type: string;
  /** 1–3 user notifications, 4–10 insights. */
  priority: number;
  /** The member it is for; omitted or null: the whole team. */
  userId?: string | null;
  source?: 'system' | 'user';
  metadata?: Record<string, unknown>;
  status?: NotificationStatus;
}

/** Creates a notification (through the write path; joins the caller's write). Returns it. */
export function createNotification(db: Db, teamId: string, input: NewNotification): Notification {
  if (!Number.isInteger(input.priority) || input.priority < 1 || input.priority > 10) {
    throw new InvalidReference('priority', 'priority must be a whole number from 1 to 10');
  }
  const type = input.type.trim();
  if (!type || type.length > 100) throw new InvalidReference('type', 'type must be 1 to 100 characters');
  return write(db, teamId, (w) => {
    if (input.userId && !db.prepare('SELECT 1 FROM team_members WHERE team_id = ? AND user_id = ?').get(teamId, input.userId)) {
      throw new InvalidReference('userId', `User ${input.userId} is not a member of this team`);
    }
    const id = w.insert('notification', {
      id: input.id,
      user_id: input.userId ?? null,
      type,
      priority: input.priority,
      source: input.source ?? 'system',
      status: input.status ?? 'unread',
      metadata: JSON.stringify(input.metadata ?? {}),
      last_used_at: null,
    });
    return getNotification(db, teamId, id);
  });
}

export interface NotificationQuery {
  status?: readonly NotificationStatus[];
  priority?: number;
  maxPriority?: number;
  cursor?: string;
  pageSize?: number;
}

/** The user's notifications (own and the team's), newest first, keyset-paged. */
export function listNotifications(
  db: Db,
  teamId: string,
  userId: string | undefined,
  query: NotificationQuery = {},
): { data: Notification[]; meta: { cursor: string | null; hasNextPage: boolean; hasPreviousPage: boolean } } {
  const who = audience(userId);
  const where = ['n.team_id = @team', who.sql];
  const params: Record<string, unknown> = { team: teamId, ...who.params };
  const statuses = query.status?.length ? [...new Set(query.status)].sort() : null;
  if (statuses) {
    where.push(
      userId
        ? `coalesce((SELECT r.status FROM notification_reads r WHERE r.notification_id = n.id AND r.user_id = @user
             AND n.user_id IS NULL), n.status) IN (SELECT value FROM json_each(@statuses))`
        : 'n.status IN (SELECT value FROM json_each(@statuses))',
    );
    params.statuses = JSON.stringify(statuses);
  }
  if (query.priority !== undefined) {
    where.push('n.priority = @priority');
    params.priority = query.priority;
  }
  if (query.maxPriority !== undefined) {
    where.push('n.priority <= @maxPriority');
    params.maxPriority = query.maxPriority;
  }
  return db.transaction(() => {
    const page = keysetPage(db, {
      from: 'notifications n',
      id: 'n.id',
      where,
      params,
      sort: { sql: 'n.created_at', kind: 'text' },
      direction: 'desc',
      pageSize: query.pageSize ?? 50,
      fingerprint: listFingerprint([
        'notifications',
        teamId,
        userId ?? null,
        statuses,
        query.priority ?? null,
        query.maxPriority ?? null,
      ]),
      cursor: query.cursor,
    });
    const rows = readFor(db, teamId, userId, page.ids);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return {
      data: page.ids.flatMap((id) => {
        const r = byId.get(id);
        return r ? [toNotification(r)] : [];
      }),
      meta: { cursor: page.cursor, hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage },
    };
  })();
}

function readFor(db: Db, teamId: string, userId: string | undefined, ids: readonly string[]): Row[] {
  if (ids.length === 0) return [];
  const select = selectFor(userId);
  return db
    .prepare(`${select.sql} WHERE n.team_id = @team AND n.id IN (SELECT value FROM json_each(@ids))`)
    .all({ ...select.params, team: teamId, ids: JSON.stringify(ids) }) as Row[];
}

/** The row of one notification as the user sees it; NotFound for another user's (or another team's). */
function seenRow(db: Db, teamId: string, userId: string | undefined, id: string): Row {
  const who = audience(userId);
  const select = selectFor(userId);
  const row = db
    .prepare(`${select.sql} WHERE n.team_id = @team AND n.id = @id AND ${who.sql}`)
    .get({ ...select.params, ...who.params, team: teamId, id }) as Row | undefined;
  if (!row) throw new NotFound('notification', id);
  return row;
}

/** One notification as the user sees it (their own status of a team-wide one). */
export function getNotificationFor(db: Db, teamId: string, userId: string | undefined, id: string): Notification {
  return toNotification(seenRow(db, teamId, userId, id));
}

/**
 * Sets the status the user sees, inside the caller's write: a member's status of a team-wide notification is their
 * own (the notification records a change so live screens refresh; its synced fields do not move); a personal one,
 * or any without a member, changes the notification itself. Returns whether anything changed.
 */
function setStatus(w: Writer, userId: string | undefined, seen: Row, status: NotificationStatus): boolean {
  if (seen.status === status) return false;
  if (userId && seen.user_id === null) {
    w.db
      .prepare(
        `INSERT INTO notification_reads (team_id, notification_id, user_id, status, last_used_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (notification_id, user_id) DO UPDATE SET status = excluded.status, last_used_at = excluded.last_used_at`,
      )
      .run(w.teamId, seen.id, userId, status, w.now);
    w.touch('notification', seen.id);
  } else {
    w.update('notification', seen.id, { status, last_used_at: w.now });
  }
  return true;
}

/** Sets one notification's status as the user sees it; NotFound for another user's (or another team's) notification. */
export function updateNotificationStatus(
  db: Db,
  teamId: string,
  userId: string | undefined,
  id: string,
  status: NotificationStatus,
): Notification {
  return write(db, teamId, (w) => {
    setStatus(w, userId, seenRow(db, teamId, userId, id), status);
    return getNotificationFor(db, teamId, userId, id);
  });
}

/** Sets the status of every notification the user sees (own and the team's); returns those that changed. */
export function updateAllNotificationStatus(
  db: Db,
  teamId: string,
  userId: string | undefined,
  status: NotificationStatus,
): Notification[] {
  return write(db, teamId, (w) => {
    const who = audience(userId);
    const ids = db
      .prepare(`SELECT n.id FROM notifications n WHERE n.team_id = @team AND ${who.sql} ORDER BY n.created_at DESC, n.id DESC`)
      .pluck()
      .all({ team: teamId, ...who.params }) as string[];
    const seen = new Map(readFor(db, teamId, userId, ids).map((r) => [r.id, r]));
    const changed = ids.filter((id) => setStatus(w, userId, seen.get(id)!, status));
    return readFor(db, teamId, userId, changed)
      .map(toNotification)
      .sort((a, b) => changed.indexOf(a.id) - changed.indexOf(b.id));
  });
}
