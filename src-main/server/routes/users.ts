import type { FastifyInstance } from 'fastify';
import { userRoutes } from '../../../src-shared/contract/users';
import type { Db } from '../../store/db';
import { NotFound } from '../../store/errors';
import { getMe, updateMe } from '../../store/teams/team-api';
import { notFound } from '../errors';
import { registerRoute } from '../route';

/** A team without members has no user for a non-user credential to act for: say how to make one. */
function noUser(err: unknown): never {
  if (err instanceof NotFound) {
    throw notFound('No user for this credential', 'The team has no members; create one with `finops user create`');
  }
  throw err;
}

export async function userRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  registerRoute(app, userRoutes.me, ({ auth }) => {
    try {
      return getMe(db, auth);
    } catch (err) {
      return noUser(err);
    }
  });
  registerRoute(app, userRoutes.updateMe, ({ auth, body }) => {
    try {
      return updateMe(db, auth, body);
    } catch (err) {
      return noUser(err);
    }
  });
}
