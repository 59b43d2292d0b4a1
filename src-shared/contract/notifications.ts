import { z } from 'zod';
import { multiValue, PageSize } from './common';
import { CursorQuery, idParams, pageOf } from './list';
import { defineRoute } from './route';

/**
 * Notifications (docs/decisions/0059-notifications.md): exactly the spec's fields. A notification is addressed to
 * one user (`userId`) or to the whole team (`userId` null). A caller sees and changes its own and the team's, never
 * another user's (404). The caller is the credential's user; a credential that is no user's (an API key from
 * `finops token create`, a client-credentials token) acts for the team's owner (store/users.ts `actingUserId`).
 * Newest first.
 */
export const NOTIFICATION_STATUSES = ['unread', 'read', 'archived'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

export const Notification = z
  .object({
    id: z.string(),
    createdAt: z.string(),
    teamId: z.string(),
    userId: z.string().nullable().describe('null: addressed to the whole team'),
    type: z.string().describe('e.g. transactions_created, invoice_paid, invoice_overdue'),
    priority: z.number().int().min(1).max(10).describe('1-3 user notifications, 4-10 insights'),
    source: z.enum(['system', 'user']),
    status: z.enum(NOTIFICATION_STATUSES),
    metadata: z.record(z.string(), z.unknown()),
    lastUsedAt: z.string().nullable().describe('when its status was last changed by someone; null until then'),
  })
  .meta({ id: 'Notification' });
export type Notification = z.infer<typeof Notification>;

const Priority = z.coerce.number().int().min(1).max(10);

export const NotificationListQuery = z.object({
  status: multiValue(z.enum(NOTIFICATION_STATUSES)).describe('one or more (repeated key); default every status'),
  priority: Priority.optional().describe('exactly this priority'),
  maxPriority: Priority.optional().describe('this priority or lower (e.g. 3: user notifications only)'),
  cursor: CursorQuery,
  pageSize: PageSize,
});

export const NotificationPage = pageOf(Notification);

export const NotificationStatusBody = z.strictObject({ status: z.enum(NOTIFICATION_STATUSES) });

export const NotificationIdParams = idParams();

export const notificationRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/notifications',
    tag: 'notifications',
    summary: "The caller's notifications (its own and the team's), newest first",
    scopes: ['notifications.read'],
    query: NotificationListQuery,
    responses: { 200: NotificationPage },
  }),
  updateStatus: defineRoute({
    method: 'PATCH',
    path: '/notifications/:id/status',
    tag: 'notifications',
    summary: "Set one notification's status: {data: notification}",
    scopes: ['notifications.write'],
    params: NotificationIdParams,
    body: NotificationStatusBody,
    responses: { 200: z.object({ data: Notification }) },
  }),
  updateAllStatus: defineRoute({
    method: 'POST',
    path: '/notifications/update-all-status',
    tag: 'notifications',
    summary: "Set the status of all the caller's notifications: {data: [the updated notifications]}",
    scopes: ['notifications.write'],
    body: NotificationStatusBody,
    responses: { 200: z.object({ data: z.array(Notification) }) },
  }),
};
