import type { FastifyInstance } from 'fastify';
import { notificationRoutes } from '../../../src-shared/contract/notifications';
import type { Db } from '../../store/db';
import {
  listNotifications,
  updateAllNotificationStatus,
  updateNotificationStatus,
} from '../../store/notifications/notifications';
import { actingUserId } from '../../store/users/users';
import { registerRoute } from '../route';

/**
 * Notifications of the caller (docs/decisions/0059-notifications.md): the caller is `actingUserId` — the
 * credential's user, or the team's owner for a credential that is no user's. Never served from the response cache:
 * the same URL answers differently for two users of one team.
 */
export async function notificationRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  registerRoute(app, notificationRoutes.list, ({ auth, query }) =>
    listNotifications(db, auth.teamId, actingUserId(db, auth), query),
  );
  registerRoute(app, notificationRoutes.updateStatus, ({ auth, params, body }) => ({
    data: updateNotificationStatus(db, auth.teamId, actingUserId(db, auth), params.id, body.status),
  }));
  registerRoute(app, notificationRoutes.updateAllStatus, ({ auth, body }) => ({
    data: updateAllNotificationStatus(db, auth.teamId, actingUserId(db, auth), body.status),
  }));
}
