import type { FastifyInstance } from 'fastify';
import { trackerRoutes as r } from '../../../src-shared/contract/tracker';
import { trackerCategoryRoutes as categories } from '../../../src-shared/contract/tracker-categories';
import type { Db } from '../../store/db';
import {
  createTrackerCategory,
  deleteTrackerCategory,
  getTrackerCategory,
  listTrackerCategories,
  updateTrackerCategory,
} from '../../store/tracker/categories';
import {
  createTrackerEntries,
  createTrackerEntriesOfDays,
  createTrackerEntry,
  deleteTrackerEntry,
  getTrackerEntry,
  listTrackerEntries,
  updateTrackerEntry,
} from '../../store/tracker/entries';
import {
  createTrackerProject,
  deleteTrackerProject,
  getTrackerProject,
  listTrackerProjects,
  updateTrackerProject,
} from '../../store/tracker/projects';
import { currentTimer, startTimer, stopTimer, timerStatus } from '../../store/tracker/timer';
import { actingUserId } from '../../store/users/users';
import { registerRoute } from '../route';

export async function trackerRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  const actor = (auth: { teamId: string; userId: string | null }) => actingUserId(db, auth) ?? null;

  registerRoute(app, r.listProjects, ({ auth, query }) => listTrackerProjects(db, auth.teamId, query));
  registerRoute(app, r.getProject, ({ auth, params }) => getTrackerProject(db, auth.teamId, params.id));
  registerRoute(app, r.createProject, ({ auth, body }) => createTrackerProject(db, auth.teamId, body));
  registerRoute(app, r.updateProject, ({ auth, params, body }) => updateTrackerProject(db, auth.teamId, params.id, body));
  registerRoute(app, r.deleteProject, ({ auth, params }) => deleteTrackerProject(db, auth.teamId, params.id));

  registerRoute(app, categories.list, ({ auth }) => ({ data: listTrackerCategories(db, auth.teamId) }));
  registerRoute(app, categories.get, ({ auth, params }) => getTrackerCategory(db, auth.teamId, params.id));
  registerRoute(app, categories.create, ({ auth, body }) => createTrackerCategory(db, auth.teamId, body));
  registerRoute(app, categories.update, ({ auth, params, body }) => updateTrackerCategory(db, auth.teamId, params.id, body));
  registerRoute(app, categories.delete, ({ auth, params }) => deleteTrackerCategory(db, auth.teamId, params.id));

  registerRoute(app, r.listEntries, ({ auth, query }) => listTrackerEntries(db, auth.teamId, query));
  registerRoute(app, r.getEntry, ({ auth, params }) => getTrackerEntry(db, auth.teamId, params.id));
  // The hosted shape (`dates`) is answered in the hosted shape, {data: [entries]}; ours with the entry.
  registerRoute(app, r.createEntry, ({ auth, body }) =>
    body.dates
      ? { data: createTrackerEntriesOfDays(db, auth.teamId, body, actor(auth)) }
      : createTrackerEntry(db, auth.teamId, body, actor(auth)),
  );
  registerRoute(app, r.bulkCreateEntries, ({ auth, body }) => ({
    data: createTrackerEntries(db, auth.teamId, body, actor(auth)),
  }));
  registerRoute(app, r.updateEntry, ({ auth, params, body }) => updateTrackerEntry(db, auth.teamId, params.id, body));
  registerRoute(app, r.deleteEntry, ({ auth, params }) => deleteTrackerEntry(db, auth.teamId, params.id));

  registerRoute(app, r.startTimer, ({ auth, body }) => startTimer(db, auth.teamId, body, actor(auth)));
  registerRoute(app, r.stopTimer, ({ auth, body }) => {
    const { entry, discarded } = stopTimer(db, auth.teamId, body ?? {}, actor(auth));
    return { ...entry, discarded };
  });
  registerRoute(app, r.currentTimer, ({ auth }) => ({ data: currentTimer(db, auth.teamId, actor(auth)) }));
  registerRoute(app, r.timerStatus, ({ auth }) => ({ data: timerStatus(db, auth.teamId, actor(auth)) }));
}
