import type { FastifyInstance } from 'fastify';
import { customerRoutes } from '../../../src-shared/contract/customers';
import { listCustomers } from '../../store/customers/list';
import { customerReadChangesAt, getCustomer } from '../../store/customers/read';
import { deleteCustomer, updateCustomer, upsertCustomer } from '../../store/customers/write';
import type { Db } from '../../store/db';
import { isReplicaPush } from '../replica';
import { registerRoute } from '../route';

export async function customerRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  // Reads are served from the response cache until a write or until a customer's "recent" tab ends by itself.
  registerRoute(app, customerRoutes.list, ({ auth, query }) => listCustomers(db, auth.teamId, query), {
    cacheUntil: (page) => Math.min(...page.data.map(customerReadChangesAt)),
  });
  // Always 201, created or matched and updated (the spec allows it): clients compare the returned id. A sync
  // replica's create is matched by its id only: the replica already holds it as a customer of its own, and an email
  // is not unique (two customers of one email stay two, docs/decisions/0021).
  const shared = { sharedCommit: true };
  registerRoute(
    app,
    customerRoutes.create,
    ({ auth, body, request }) => upsertCustomer(db, auth.teamId, body, new Date(), { byEmail: !isReplicaPush(request) }).customer,
    shared,
  );
  registerRoute(app, customerRoutes.get, ({ auth, params }) => getCustomer(db, auth.teamId, params.id), {
    cacheUntil: customerReadChangesAt,
  });
  registerRoute(app, customerRoutes.update, ({ auth, params, body }) => updateCustomer(db, auth.teamId, params.id, body), shared);
  registerRoute(app, customerRoutes.delete, ({ auth, params }) => deleteCustomer(db, auth.teamId, params.id), shared);
}
