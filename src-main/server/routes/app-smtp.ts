import type { FastifyInstance } from 'fastify';
import { appSmtpRoutes, type SmtpView } from '../../../src-shared/contract/app-smtp';
import { dataDirOf } from '../../infra/blob-store';
import { hasSmtpPassword, saveSmtpSettings, writeSmtpPassword } from '../../invoices/smtp-secrets';
import { SmtpTestFailure, sendSmtpTest } from '../../invoices/smtp-test';
import type { Db } from '../../store/db';
import { clearSmtpSettings, getSmtpSettings } from '../../store/invoices/smtp';
import { findTeamById, isSingleTeam } from '../../store/teams/teams';
import { actingUserId, getUser } from '../../store/users/users';
import type { Credential } from '../auth/credentials';
import { ApiError, conflict, forbidden, notFound, sendError, unprocessable } from '../errors';
import { registerRoute } from '../route';
import { mayManage } from './app-sync';

/**
 * The team's mail server under /app (contract/app-smtp.ts): `finops smtp set|show|clear` for the Team settings
 * screen. The password goes to the data dir's secret file as the CLI puts it there, never into the database or an
 * answer. Changing the mail server is team administration: it decides where the team's invoices are sent from; so
 * is sending a test message through it (to any address: docs/decisions/0118), which fails as 502 with the mail
 * server's answer when the server is unreachable or refuses.
 */
export async function appSmtpRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  const dataDir = dataDirOf(db);
  const admin = (auth: Credential) => {
    if (!mayManage(db, auth)) {
      throw forbidden(
        'Only an owner of the team may set its mail server',
        auth.userId
          ? 'Ask an owner of the team.'
          : 'A credential without a person needs the apis.all scope for team administration.',
      );
    }
    return auth.teamId;
  };
  const view = (teamId: string): SmtpView => {
    const s = getSmtpSettings(db, teamId);
    if (!s) return { data: null };
    return { data: { ...s, passwordSet: hasSmtpPassword(dataDir, teamId) } };
  };

  registerRoute(app, appSmtpRoutes.get, ({ auth }) => view(auth.teamId));
  registerRoute(app, appSmtpRoutes.put, ({ auth, body }) => {
    const teamId = admin(auth);
    const { password, ...settings } = body;
    saveSmtpSettings(db, dataDir, teamId, settings, password);
    return view(teamId);
  });
  registerRoute(app, appSmtpRoutes.remove, ({ auth }) => {
    const teamId = admin(auth);
    const had = clearSmtpSettings(db, teamId);
    writeSmtpPassword(dataDir, teamId, null);
    if (!had) throw notFound('The team has no mail server');
    return view(teamId);
  });
  registerRoute(app, appSmtpRoutes.test, async ({ auth, body, request, reply }) => {
    const teamId = admin(auth);
    const settings = getSmtpSettings(db, teamId);
    if (!settings) throw conflict('The team has no mail server', 'Save a mail server first, then send a test message.');
    const userId = actingUserId(db, auth);
    const to = body.to ?? (userId ? getUser(db, userId).email : undefined);
    if (!to) {
      throw unprocessable('Say where the test message goes', 'The team has no member whose e-mail it could go to.', [
        { location: 'body', path: 'to', message: 'is required: the team has no member to send to' },
      ]);
    }
    try {
      const teamName = findTeamById(db, teamId)?.name ?? 'Finops Desk';
      const sent = await sendSmtpTest(settings, teamId, { to, teamName, dataDir, singleTeam: isSingleTeam(db) });
      return { data: { to, ...sent } };
    } catch (err) {
      if (!(err instanceof SmtpTestFailure)) throw err;
      // The mail server, not this one, failed: a gateway error with its answer, noted as a warning (no stack).
      request.log.warn({ reqId: request.id, smtp: `${settings.host}:${settings.port}`, detail: err.detail }, err.message);
      return sendError(reply, new ApiError(502, 'Bad Gateway', err.message, err.detail));
    }
  });
}
