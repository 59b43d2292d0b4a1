import type { FastifyInstance } from 'fastify';
import { appInboxRoutes } from '../../../src-shared/contract/app-inbox';
import { InboxIntake } from '../../inbox-ingest/runner';
import {
  inboxSourcesView,
  removeSource,
  renewCallbackSecret,
  setImapMailbox,
  setWatchedFolder,
} from '../../inbox-ingest/settings';
import { dataDirOf } from '../../infra/blob-store';
import { backgroundOf } from '../../runtime/background';
import type { Db } from '../../store/db';
import type { Credential } from '../auth/credentials';
import { forbidden, notFound } from '../errors';
import { registerRoute } from '../route';
import { mayManage } from './app-sync';
import { kickDocumentRunner } from './uploads';

/**
 * The team's inbox sources under /app (contract/app-inbox.ts, docs/decisions/0150-inbox-ingestion.md): the watched
 * folder, the IMAP mailbox and the inbound e-mail callback. Reading them is open to members (inbox.read); setting them
 * is team administration: the folder is a path on this machine and the mailbox holds the team's mail.
 */
export async function appInboxRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  const dataDir = dataDirOf(db);
  const admin = (auth: Credential) => {
    if (!mayManage(db, auth)) {
      throw forbidden(
        'Only an owner of the team may set where its receipts arrive',
        auth.userId
          ? 'Ask an owner of the team.'
          : 'A credential without a person needs the apis.all scope for team administration.',
      );
    }
    return auth.teamId;
  };
  const view = (teamId: string) => inboxSourcesView(db, dataDir, teamId);
  // A source set or changed is looked at at once by this server's intake.
  const kick = () => {
    backgroundOf(db)?.inboxIntake?.kick('folder');
    backgroundOf(db)?.inboxIntake?.kick('imap');
  };

  // Every member may see where receipts arrive (to send or drop them there); changing it is administration.
  registerRoute(app, appInboxRoutes.get, ({ auth }) => view(auth.teamId));
  registerRoute(app, appInboxRoutes.putFolder, ({ auth, body }) => {
    setWatchedFolder(db, admin(auth), body.path);
    kick();
    return view(auth.teamId);
  });
  registerRoute(app, appInboxRoutes.putImap, ({ auth, body }) => {
    const { password, ...config } = body;
    setImapMailbox(db, dataDir, admin(auth), config, password);
    kick();
    return view(auth.teamId);
  });
  registerRoute(app, appInboxRoutes.renewCallback, ({ auth }) => {
    const { path, secret } = renewCallbackSecret(db, dataDir, admin(auth));
    return { path, secret };
  });
  registerRoute(app, appInboxRoutes.remove, ({ auth, params }) => {
    if (!removeSource(db, dataDir, admin(auth), params.kind)) throw notFound(`The team has no ${params.kind} source`);
    return view(auth.teamId);
  });
  registerRoute(app, appInboxRoutes.fetch, async ({ auth }) => {
    const teamId = admin(auth);
    const intake = backgroundOf(db)?.inboxIntake ?? new InboxIntake(db, dataDir);
    const outcomes = [...(await intake.round('folder', teamId)), ...(await intake.round('imap', teamId))];
    if (outcomes.some((o) => o.created > 0)) kickDocumentRunner(db);
    return { data: outcomes.map(({ teamId: _team, ...o }) => o) };
  });
}
