import { describe, expect, it } from 'vitest';
import {
  draftErrors,
  draftOf,
  draftTotals,
  emptyDraft,
  emptyLine,
  type InvoiceDraft,
  invoiceVatGroups,
  restartRates,
  startRate,
  toCreateBody,
  toPatchBody,
  type VatContext,
} from '../../../../src-renderer/screens/invoices/invoice-form';
import type { Invoice } from '../../../../src-shared/contract/invoices';

const GERMAN = { decimal: ',', group: '.' };
const CTX: VatContext = { teamRate: 19, includeVat: true, locale: 'de-DE' };
const line = (over: Partial<ReturnType<typeof emptyLine>>) => ({ ...emptyLine('19'), ...over });

function draft(over: Partial<InvoiceDraft> = {}): InvoiceDraft {
  return {
    ...emptyDraft({ currency: 'EUR', vat: '19' }),
    customerId: 'c1',
    lines: [
      line({ name: 'Backend development', quantity: '35,5', unit: 'hours', price: '125' }),
      line({ name: 'Logo', quantity: '1', price: '4.800' }),
    ],
    ...over,
  };
}

describe('the invoice form', () => {
  it('previews the totals by the server’s rule, read in the user’s number format', () => {
    // The demo's INV-0560: 35.5 h × 125 + 4,800 = 9,237.50; 19 % VAT = 1,755.13 (half away from zero).
    expect(draftTotals(draft(), GERMAN)).toEqual({
      subtotal: 9237.5,
      vat: 1755.13,
      discount: 0,
      total: 10992.63,
      lines: [4437.5, 4800],
      vatGroups: [{ rate: 19, net: 9237.5, vat: 1755.13 }],
    });
    expect(draftTotals(draft({ discount: '92,63' }), GERMAN)?.total).toBe(10900);
  });

  it('computes 19 % and 7 % on one invoice, each rate on its own', () => {
    const two = draft({
      lines: [line({ name: 'Workshop', price: '1.000' }), line({ name: 'Handbook', quantity: '2', price: '25', vat: '7' })],
    });
    expect(draftTotals(two, GERMAN)).toMatchObject({
      subtotal: 1050,
      vat: 193.5, // 190 + 3.50
      total: 1243.5,
      vatGroups: [
        { rate: 19, net: 1000, vat: 190 },
        { rate: 7, net: 50, vat: 3.5 },
      ],
    });
    const body = toCreateBody(two, 'create', CTX, GERMAN);
    expect(body.lineItems?.map((l) => [l.name, l.vat])).toEqual([
      ['Workshop', 19],
      ['Handbook', 7],
    ]);
    expect(body.template).toEqual({ vatRate: 19, includeVat: true });
  });

  it('shows no totals while a figure cannot be computed (too many decimals, an unknown currency)', () => {
    expect(draftTotals(draft({ lines: [line({ name: 'x', price: '1,005' })] }), GERMAN)).toBeNull();
    expect(draftTotals(draft({ currency: 'EURO' }), GERMAN)).toBeNull();
  });

  it('names what is missing or wrong before anything is sent; blank rows are ignored', () => {
    expect(draftErrors(draft({ lines: [...draft().lines, emptyLine('19')] }), GERMAN)).toEqual({});
    const bad = draft({
      customerId: '',
      dueDate: '2026-01-01',
      issueDate: '2026-02-01',
      lines: [line({ name: '', price: 'abc', vat: '120' }), emptyLine('')],
    });
    expect(draftErrors(bad, GERMAN)).toEqual({
      customerId: 'form.errors.customer',
      dueDate: 'form.errors.dueBeforeIssue',
      'lines.0.name': 'form.errors.lineName',
      'lines.0.price': 'form.errors.price',
      'lines.0.vat': 'form.errors.rate',
    });
    expect(draftErrors(draft({ lines: [emptyLine('19')] }), GERMAN)).toEqual({ lines: 'form.errors.noLines' });
  });

  it('sends the filled lines with their rates and categories, and only the fields given', () => {
    const body = toCreateBody(
      draft({ note: ' Thanks! ', invoiceNumber: '', lines: [line({ name: 'Logo', price: '4.800', category: 'design' })] }),
      'create_and_send',
      CTX,
      GERMAN,
    );
    expect(body).toEqual({
      customerId: 'c1',
      currency: 'EUR',
      deliveryType: 'create_and_send',
      lineItems: [{ name: 'Logo', quantity: 1, price: 4800, vat: 19, category: 'design' }],
      template: { vatRate: 19, includeVat: true },
      note: 'Thanks!',
    });
  });

  it('under reverse charge starts every line at 0 % and carries category AE with the note in the invoice’s language', () => {
    const format = String;
    expect(startRate({ reverseCharge: true }, 7, CTX, format)).toBe('0');
    expect(startRate({ reverseCharge: false }, 7, CTX, format)).toBe('7');
    expect(startRate({ reverseCharge: false }, null, CTX, format)).toBe('19');
    const before = draft({ lines: [line({ name: 'Audit', price: '900' }), line({ name: 'Book', price: '30', vat: '7' })] });
    // Reverse charge on: the line still at its start rate follows, the 7 % typed would too only if it were the start.
    const after = restartRates(
      { ...before, reverseCharge: true },
      (l) => startRate(before, l.category ? 7 : null, CTX, format),
      (l) => startRate({ reverseCharge: true }, l.category ? 7 : null, CTX, format),
    );
    expect(after.lines.map((l) => l.vat)).toEqual(['0', '7']);
    const body = toCreateBody({ ...after, lines: [after.lines[0]!] }, 'create', CTX, GERMAN);
    expect(body.template).toMatchObject({
      vatCategory: 'AE',
      vatExemptionReasonCode: 'VATEX-EU-AE',
      vatExemptionReason: expect.stringContaining('§ 13b UStG'),
    });
    expect(body.lineItems?.[0]?.vat).toBe(0);
  });

  it('edits a draft: filled from the invoice, saved whole, reverse charge taken away when turned off', () => {
    const inv = {
      id: 'i1',
      invoiceNumber: 'INV-0007',
      customerId: 'c1',
      currency: 'EUR',
      issueDate: '2026-06-10',
      dueDate: '2026-07-10',
      discount: 0,
      note: null,
      template: { includeVat: true, vatRate: 19, vatCategory: 'AE' },
      lineItems: [
        { name: 'Audit', quantity: 1.5, unit: 'days', price: 1250.5, vat: 0, category: null, amount: 1875.75 },
        { name: 'Book', quantity: 1, unit: null, price: 30, vat: null, category: 'books', amount: 30 },
      ],
    } as unknown as Invoice;
    const d = draftOf(inv, (n, digits) => n.toFixed(digits ?? 0).replace('.', ','));
    expect(d).toMatchObject({ invoiceNumber: 'INV-0007', issueDate: '2026-06-10', reverseCharge: true });
    expect(d.lines.map((l) => [l.name, l.quantity, l.price, l.vat, l.category])).toEqual([
      ['Audit', '1,5', '1250,5', '0', ''],
      ['Book', '1', '30', '19', 'books'],
    ]);
    const patch = toPatchBody({ ...d, reverseCharge: false }, inv, CTX, GERMAN);
    expect(patch).toMatchObject({
      lineItems: [
        { name: 'Audit', quantity: 1.5, price: 1250.5, unit: 'days', vat: 0 },
        { name: 'Book', quantity: 1, price: 30, vat: 19, category: 'books' },
      ],
      template: { vatCategory: null, vatExemptionReasonCode: null, vatExemptionReason: null },
      discount: 0,
      note: null,
      issueDate: '2026-06-10',
    });
    expect(patch.invoiceNumber).toBeUndefined(); // unchanged: not sent
    expect(invoiceVatGroups(inv)).toEqual([
      { rate: 19, net: 30, vat: 5.7 },
      { rate: 0, net: 1875.75, vat: 0 },
    ]);
  });
});
