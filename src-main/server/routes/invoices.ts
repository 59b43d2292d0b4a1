import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invoiceRoutes as r } from '../../../src-shared/contract/invoices';
import { assertEInvoiceIssuable } from '../../invoices/einvoice-issue';
import { emailDraft } from '../../invoices/email-draft';
import { assertIssuable, issueCheckOf } from '../../invoices/issue-check';
import { invoicePdf, removeInvoicePdf } from '../../invoices/pdf-files';
import type { Db } from '../../store/db';
import { newId } from '../../store/ids';
import { listDeliveries, toDelivery } from '../../store/invoices/deliveries';
import { invoiceFromTracker } from '../../store/invoices/from-tracker';
import { listInvoices } from '../../store/invoices/list';
import { getInvoice, getInvoiceRow, type InvoiceRow, requireInvoiceRow } from '../../store/invoices/read';
import { queueInvoiceReminder, sendInvoice } from '../../store/invoices/send';
import { getInvoiceSettings, updateInvoiceSettings } from '../../store/invoices/settings';
import { invoiceSummary, paymentStatus } from '../../store/invoices/summary';
import { createInvoice, deleteInvoice, updateInvoice } from '../../store/invoices/write';
import { isReplicaPush } from '../replica';
import { registerRoute } from '../route';
import { eInvoiceError } from './e-invoices';

export interface InvoiceRoutesOptions {
  db: Db;
  /** Where invoice PDFs are stored; default the folder of the database file (none for an in-memory database). */
  dataDir?: string;
}

/** The data dir of a database opened by openDatabase: the folder of its file. */
export function dataDirOf(db: Db): string | undefined {
  return db.memory || !db.name ? undefined : path.dirname(db.name);
}

export async function invoiceRoutesPlugin(app: FastifyInstance, opts: InvoiceRoutesOptions): Promise<void> {
  const { db } = opts;
  const dataDir = opts.dataDir ?? dataDirOf(db);

  /**
   * A person's issue is checked first (docs/decisions/0121): what the invoice must state, then its e-invoice. A sync
   * replica's push is not: the other side issued it, and it is that side's record.
   */
  const guard = (request: FastifyRequest, teamId: string) =>
    isReplicaPush(request)
      ? undefined
      : (row: InvoiceRow) => {
          try {
            assertIssuable(db, teamId, row);
          } catch (err) {
            throw eInvoiceError(err);
          }
        };
  /** The PDF of an invoice issued by this request, produced and kept now: the copy that is what was issued (0119). */
  const keepIssued = async <T extends { id: string; status: string }>(teamId: string, invoice: T): Promise<T> => {
    if (dataDir && getInvoiceRow(db, teamId, invoice.id)?.issued_parties) {
      try {
        await invoicePdf(db, dataDir, teamId, invoice.id);
      } catch {
        // Kept by the e-mail sender or the first download instead, from the same frozen parties.
      }
    }
    return invoice;
  };

  registerRoute(app, r.list, ({ auth, query }) => listInvoices(db, auth.teamId, query));
  registerRoute(app, r.create, ({ auth, body, request }) =>
    keepIssued(auth.teamId, createInvoice(db, auth.teamId, body, { beforeIssue: guard(request, auth.teamId) })),
  );
  registerRoute(app, r.summary, ({ auth, query }) => invoiceSummary(db, auth.teamId, query.statuses));
  registerRoute(app, r.paymentStatus, ({ auth }) => paymentStatus(db, auth.teamId));
  registerRoute(app, r.settings, ({ auth }) => getInvoiceSettings(db, auth.teamId));
  registerRoute(app, r.updateSettings, ({ auth, body }) => updateInvoiceSettings(db, auth.teamId, body));
  registerRoute(app, r.fromTracker, ({ auth, body }) => invoiceFromTracker(db, auth.teamId, body));
  registerRoute(app, r.get, ({ auth, params }) => getInvoice(db, auth.teamId, params.id));
  // A replica's push carries the lifecycle state its copy reached: reached here through each checked move (0143).
  for (const route of [r.update, r.put] as const) {
    registerRoute(app, route, ({ auth, params, body, request }) =>
      keepIssued(
        auth.teamId,
        updateInvoice(db, auth.teamId, params.id, body, undefined, {
          throughLifecycle: isReplicaPush(request),
          beforeIssue: guard(request, auth.teamId),
        }),
      ),
    );
  }
  registerRoute(app, r.delete, ({ auth, params }) => {
    const deleted = deleteInvoice(db, auth.teamId, params.id);
    removeInvoicePdf(dataDir, auth.teamId, params.id);
    return deleted;
  });
  registerRoute(app, r.send, ({ auth, params, body, request }) => {
    // An invoice whose e-invoice fails its format's rules is not sent (docs/decisions/0160-e-invoices.md); a
    // person's issue is also checked for what the invoice must state (0121), inside the issuing write.
    const status = requireInvoiceRow(db, auth.teamId, params.id).status;
    if (isReplicaPush(request) || (status !== 'draft' && status !== 'scheduled')) {
      try {
        assertEInvoiceIssuable(db, auth.teamId, params.id);
      } catch (err) {
        throw eInvoiceError(err);
      }
    }
    return keepIssued(
      auth.teamId,
      sendInvoice(db, auth.teamId, params.id, {
        to: body.to,
        idempotencyKey: body.idempotencyKey,
        subject: body.subject,
        message: body.message,
        beforeIssue: guard(request, auth.teamId),
      }),
    );
  });
  registerRoute(app, r.issueCheck, ({ auth, params }) => issueCheckOf(db, auth.teamId, params.id));
  registerRoute(app, r.emailDraft, ({ auth, params, query }) => emailDraft(db, auth.teamId, params.id, query.kind));
  registerRoute(app, r.deliveries, ({ auth, params }) => {
    const row = requireInvoiceRow(db, auth.teamId, params.id);
    return { data: listDeliveries(db, auth.teamId, params.id).map((d) => toDelivery(d, row.currency)) };
  });
  registerRoute(app, r.remind, ({ auth, params, body }) => {
    queueInvoiceReminder(db, auth.teamId, params.id, {
      idempotencyKey: `remind:${params.id}:${body.idempotencyKey ?? newId()}`,
      recipient: body.to,
      subject: body.subject,
      message: body.message,
    });
    return getInvoice(db, auth.teamId, params.id);
  });
  registerRoute(app, r.pdf, async ({ auth, params, reply }) => {
    const pdf = await invoicePdf(db, dataDir, auth.teamId, params.id);
    reply
      .type('application/pdf')
      .header('Content-Disposition', `inline; filename="${pdf.fileName}"`)
      .header('Cache-Control', 'private, no-cache');
    return pdf.bytes;
  });
}
