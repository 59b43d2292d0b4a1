import type { FastifyInstance } from 'fastify';
import { teamRoutes } from '../../../src-shared/contract/teams';
import type { Db } from '../../store/db';
import { listMembers, NotOwner, teamOfCaller, updateTeam } from '../../store/teams/team-api';
import { getTeamDetails } from '../../store/teams/teams';
import { forbidden } from '../errors';
import { registerRoute } from '../route';

export async function teamRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  registerRoute(app, teamRoutes.list, ({ auth }) => ({ data: [getTeamDetails(db, auth.teamId)] }));
  registerRoute(app, teamRoutes.get, ({ auth, params }) => teamOfCaller(db, auth, params.id));
  registerRoute(app, teamRoutes.update, ({ auth, params, body }) => {
    try {
      return updateTeam(db, auth, params.id, body);
    } catch (err) {
      if (err instanceof NotOwner) throw forbidden(err.message, 'Ask an owner of the team to make this change');
      throw err;
    }
  });
  registerRoute(app, teamRoutes.members, ({ auth, params }) => ({ data: listMembers(db, auth, params.id) }));
}
