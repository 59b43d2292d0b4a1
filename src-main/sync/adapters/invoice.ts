import { INVOICE_CONTENT } from '../../../src-shared/domain/sync/fields';
import { apiLineItems, sameInvoice } from '../../../src-shared/domain/sync/invoices';
import type { Json } from '../../../src-shared/domain/sync/merge';
import type { SyncAdapter } from './adapter';
import { crud, PAGES } from './capability';
import { type Api, day, major, minor, num, str, unitPrice } from './values';

/**
 * An invoice is created as a draft with its content; its lifecycle (issued, paid, canceled…) follows in an update,
 * which the remote reaches through its own checked moves (docs/decisions/0143-invoice-sync.md).
 */
const INVOICE_CREATE_FIELDS = ['invoiceNumber', ...INVOICE_CONTENT] as const;

export const invoice: SyncAdapter<'invoice'> = {
  entity: 'invoice',
  fromApi: (r) => {
    const currency = str(r.currency) ?? '';
    const {
      currency: _c,
      timezone,
      deliveryType: _d,
      ...template
    } = (r.template && typeof r.template === 'object' ? r.template : {}) as Api;
    const status = str(r.status) ?? 'draft';
    return {
      invoiceNumber: str(r.invoiceNumber) || null,
      // A deleted customer's id stays on its invoices (shown with `customer: null`): no reference to follow.
      customerId: r.customer === null ? null : str(r.customerId),
      customerName: str(r.customerName),
      currency,
      lineItems: Array.isArray(r.lineItems)
        ? (r.lineItems as Api[]).map((l) => ({
            name: str(l.name) ?? '',
            quantity: num(l.quantity) ?? 0,
            unit: str(l.unit),
            ...unitPrice(l.price, currency),
            vatRate: num(l.vat),
            taxRate: num(l.taxRate) ?? num(l.tax),
          }))
        : [],
      discountMinor: minor(r.discount, currency) ?? 0,
      issueDate: day(r.issueDate) ?? '',
      dueDate: day(r.dueDate) ?? '',
      supplyDate: day(r.supplyDate),
      supplyEndDate: day(r.supplyEndDate),
      timezone: str(r.timezone) ?? str(timezone) ?? 'UTC',
      template: template as Json,
      note: str(r.note),
      internalNote: str(r.internalNote),
      status: status === 'overdue' ? 'unpaid' : status,
      scheduledAt: str(r.scheduledAt),
    };
  },
  body: (fields, full) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fields)) {
      // A number not given yet is left for the remote to give; a time not set is left out (never "cleared").
      if ((k === 'invoiceNumber' || k === 'scheduledAt' || k === 'timezone') && v === null) continue;
      if (k === 'discountMinor') out.discount = major(v, full.currency) ?? 0;
      else if (k === 'lineItems') out.lineItems = apiLineItems(v, full.currency);
      else out[k] = v;
    }
    return out;
  },
  sameRecord: sameInvoice,
  finops: crud({
    path: '/invoices',
    list: PAGES,
    clientId: true,
    key: true,
    naturalKey: 'invoiceNumber',
    createFields: INVOICE_CREATE_FIELDS,
  }),
  // No id and no Idempotency-Key on its create (an unanswered one is read back by content before a retry); its
  // update is PUT (the spec's PATCH is not among its routes).
  hosted: crud({
    path: '/invoices',
    list: PAGES,
    clientId: false,
    key: false,
    naturalKey: 'invoiceNumber',
    createFields: INVOICE_CREATE_FIELDS,
    updateMethod: 'PUT',
  }),
};
