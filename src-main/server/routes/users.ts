import type { FastifyInstance } from 'fastify';
import { userRoutes } from '../../../src-shared/contract/users';
import type { Db } from '../../store/db';
import { NotFound } from '../../store/errors';
import { getMe, updateMe } from '../../store/teams/team-api';
import type { Credential } from '../auth/credentials';
import { notFound } from '../errors';
import { registerRoute } from '../route';

/**
 * A team without members has no user for a credential of no user to act for: say how to make one. A credential of a
 * user (an OAuth grant, a key made with `--user`) acts for no one once that user has left the team.
 */
function noUser(err: unknown, auth: Credential): never {
  if (err instanceof NotFound) {
    throw notFound(
      'No user for this credential',
      auth.userId
        ? "The credential's user is no longer a member of its team"
        : 'The team has no members; create one with `finops user create`, or bind a key to one with `finops token create --user`',
    );
  }
  throw err;
}

export async function userRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  registerRoute(app, userRoutes.me, ({ auth }) => {
    try {
      return getMe(db, auth);
    } catch (err) {
      return noUser(err, auth);
    }
  });
  registerRoute(app, userRoutes.updateMe, ({ auth, body }) => {
    try {
      return updateMe(db, auth, body);
    } catch (err) {
      return noUser(err, auth);
    }
  });
}
