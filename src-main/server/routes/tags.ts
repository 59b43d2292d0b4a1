import type { FastifyInstance } from 'fastify';
import { tagRoutes } from '../../../src-shared/contract/tags';
import type { Db } from '../../store/db';
import { createTag, deleteTag, getTag, listTags, updateTag } from '../../store/tags/tags';
import { registerRoute } from '../route';

export async function tagRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  registerRoute(app, tagRoutes.list, ({ auth }) => ({ data: listTags(db, auth.teamId) }));
  registerRoute(app, tagRoutes.create, ({ auth, body }) => createTag(db, auth.teamId, body));
  registerRoute(app, tagRoutes.get, ({ auth, params }) => getTag(db, auth.teamId, params.id));
  registerRoute(app, tagRoutes.update, ({ auth, params, body }) => updateTag(db, auth.teamId, params.id, body));
  registerRoute(app, tagRoutes.delete, ({ auth, params }) => deleteTag(db, auth.teamId, params.id));
}
