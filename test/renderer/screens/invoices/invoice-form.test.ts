import { describe, expect, it } from 'vitest';
import {
  draftErrors,
  draftTotals,
  emptyDraft,
  emptyLine,
  type InvoiceDraft,
  toCreateBody,
} from '../../../../src-renderer/screens/invoices/invoice-form';

const GERMAN = { decimal: ',', group: '.' };

function draft(over: Partial<InvoiceDraft> = {}): InvoiceDraft {
  return {
    ...emptyDraft({ currency: 'EUR', vatRate: 19, formatRate: String }),
    customerId: 'c1',
    lines: [
      { ...emptyLine(), name: 'Backend development', quantity: '35,5', unit: 'hours', price: '125' },
      { ...emptyLine(), name: 'Logo', quantity: '1', price: '4.800' },
    ],
    ...over,
  };
}

describe('the new-invoice form', () => {
  it('previews the totals by the server’s rule, read in the user’s number format', () => {
    // The demo's INV-0560: 35.5 h × 125 + 4,800 = 9,237.50; 19 % VAT = 1,755.13 (half away from zero).
    expect(draftTotals(draft(), GERMAN)).toEqual({
      subtotal: 9237.5,
      vat: 1755.13,
      discount: 0,
      total: 10992.63,
      lines: [4437.5, 4800],
    });
    expect(draftTotals(draft({ discount: '92,63' }), GERMAN)?.total).toBe(10900);
  });

  it('shows no totals while a figure cannot be computed (too many decimals, an unknown currency)', () => {
    expect(draftTotals(draft({ lines: [{ ...emptyLine(), name: 'x', price: '1,005' }] }), GERMAN)).toBeNull();
    expect(draftTotals(draft({ currency: 'EURO' }), GERMAN)).toBeNull();
  });

  it('names what is missing or wrong before anything is sent; blank rows are ignored', () => {
    expect(draftErrors(draft({ lines: [...draft().lines, emptyLine()] }), GERMAN)).toEqual({});
    const bad = draft({
      customerId: '',
      vatRate: '120',
      dueDate: '2026-01-01',
      issueDate: '2026-02-01',
      lines: [{ ...emptyLine(), name: '', price: 'abc' }, emptyLine()],
    });
    expect(draftErrors(bad, GERMAN)).toEqual({
      customerId: 'form.errors.customer',
      vatRate: 'form.errors.rate',
      dueDate: 'form.errors.dueBeforeIssue',
      'lines.0.name': 'form.errors.lineName',
      'lines.0.price': 'form.errors.price',
    });
    expect(draftErrors(draft({ lines: [emptyLine()] }), GERMAN)).toEqual({ lines: 'form.errors.noLines' });
  });

  it('sends the filled lines and only the fields given', () => {
    expect(toCreateBody(draft({ note: ' Thanks! ', invoiceNumber: '' }), 'create_and_send', GERMAN)).toEqual({
      customerId: 'c1',
      currency: 'EUR',
      deliveryType: 'create_and_send',
      lineItems: [
        { name: 'Backend development', quantity: 35.5, price: 125, unit: 'hours' },
        { name: 'Logo', quantity: 1, price: 4800 },
      ],
      template: { vatRate: 19 },
      note: 'Thanks!',
    });
  });
});
