import type { FastifyInstance } from 'fastify';
import {
  type AccessPointView,
  type InvoiceHandOff,
  appEInvoiceDeliveryRoutes as r,
} from '../../../src-shared/contract/app-einvoice-delivery';
import { readAccessPointKey, writeAccessPointKey } from '../../einvoice/access-point/secrets';
import { dataDirOf } from '../../infra/blob-store';
import type { Db } from '../../store/db';
import { clearAccessPoint, getAccessPoint, setAccessPoint } from '../../store/einvoice/access-point';
import { type HandOffRow, listHandOffs } from '../../store/einvoice/handoffs';
import { requireInvoiceRow } from '../../store/invoices/read';
import type { Credential } from '../auth/credentials';
import { forbidden, notFound, unprocessable } from '../errors';
import { registerRoute } from '../route';
import { mayManage } from './app-sync';

const toHandOff = (h: HandOffRow): InvoiceHandOff => ({
  id: h.id,
  state: h.state,
  format: h.format,
  recipient: h.recipient,
  submissionId: h.submission_id,
  attempts: h.attempts,
  lastError: h.last_error,
  createdAt: h.created_at,
  handedOverAt: h.handed_over_at,
});

/**
 * The team's Peppol access point and each invoice's hand-offs under /app (contract/app-einvoice-delivery.ts). The
 * API key goes to the data dir's secret file, never into the database or an answer. Choosing where the team's
 * invoices are delivered is team administration, as its mail server is.
 */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

export async function appEInvoiceDeliveryPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  const dataDir = dataDirOf(db);
  const admin = (auth: Credential) => {
    if (!mayManage(db, auth)) {
      throw forbidden(
        'Only an owner of the team may set its access point',
        auth.userId
          ? 'Ask an owner of the team.'
          : 'A credential without a person needs the apis.all scope for team administration.',
      );
    }
    return auth.teamId;
  };
  const view = (teamId: string): AccessPointView => {
    const s = getAccessPoint(db, teamId);
    return { data: s ? { ...s, apiKeySet: readAccessPointKey(dataDir, teamId) !== undefined } : null };
  };

  registerRoute(app, r.getAccessPoint, ({ auth }) => view(auth.teamId));
  registerRoute(app, r.putAccessPoint, ({ auth, body }) => {
    const teamId = admin(auth);
    const { apiKey, ...settings } = body;
    // A key goes only to the access point it was given for: moved elsewhere, it must be given again.
    const before = getAccessPoint(db, teamId);
    if (apiKey === undefined && before && originOf(before.baseUrl) !== originOf(settings.baseUrl)) {
      writeAccessPointKey(dataDir, teamId, null);
    }
    if (apiKey === undefined && readAccessPointKey(dataDir, teamId) === undefined) {
      throw unprocessable('The access point needs its API key', undefined, [
        {
          location: 'body',
          path: 'apiKey',
          message: 'is required when no key is stored yet, or when the access point moves to another address',
        },
      ]);
    }
    if (apiKey !== undefined) writeAccessPointKey(dataDir, teamId, apiKey);
    setAccessPoint(db, teamId, settings);
    return view(teamId);
  });
  registerRoute(app, r.removeAccessPoint, ({ auth }) => {
    const teamId = admin(auth);
    const had = clearAccessPoint(db, teamId);
    writeAccessPointKey(dataDir, teamId, null);
    if (!had) throw notFound('The team has no access point');
    return view(teamId);
  });
  registerRoute(app, r.handOffs, ({ auth, params }) => {
    requireInvoiceRow(db, auth.teamId, params.id);
    return { data: listHandOffs(db, auth.teamId, params.id).map(toHandOff) };
  });
}
