import type { FastifyInstance } from 'fastify';
import { invoiceRoutes as r } from '../../../src-shared/contract/invoices';
import { checkInvoiceEInvoice, EInvoiceRejected, EInvoiceUnavailable, issueEInvoice } from '../../invoices/einvoice-issue';
import type { Db } from '../../store/db';
import { ApiError, conflict } from '../errors';
import { registerRoute } from '../route';

/**
 * E-invoices of invoices (docs/decisions/0160-e-invoices.md): the document itself, and the check alone for the
 * invoice screen. A rule failure is 422 with `rules`; a credit note of an invoice that is not refunded is 409.
 */

export function eInvoiceError(err: unknown): unknown {
  if (err instanceof EInvoiceRejected) {
    const list = err.failures.map((f) => `${f.rule} (${f.field})`).join('; ');
    return new ApiError(422, 'Unprocessable Entity', err.message, list, undefined, {}, undefined, err.failures);
  }
  if (err instanceof EInvoiceUnavailable) return conflict(err.message);
  return err;
}

export async function eInvoiceRoutes(app: FastifyInstance, { db, dataDir }: { db: Db; dataDir?: string }) {
  registerRoute(app, r.eInvoice, async ({ auth, params, query, reply }) => {
    try {
      const doc = await issueEInvoice(db, dataDir, auth.teamId, params.id, {
        format: query.format,
        creditNote: query.document === 'credit-note',
      });
      reply
        .type(doc.mimeType)
        .header('Content-Disposition', `attachment; filename="${doc.fileName}"`)
        .header('Cache-Control', 'private, no-cache');
      return doc.bytes;
    } catch (err) {
      throw eInvoiceError(err);
    }
  });
  registerRoute(app, r.eInvoiceCheck, ({ auth, params, query }) => {
    try {
      const { format, failures } = checkInvoiceEInvoice(db, auth.teamId, params.id, {
        format: query.format,
        creditNote: query.document === 'credit-note',
      });
      return { format, ok: failures.length === 0, failures, message: null };
    } catch (err) {
      if (err instanceof EInvoiceUnavailable)
        return { format: query.format ?? null, ok: false, failures: [], message: err.message };
      throw err;
    }
  });
}
