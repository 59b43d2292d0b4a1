/**
 * What the inbox, rules and categories screens need on top of the demo data for realistic pictures and journeys: a
 * card payment and two receipts (one that fits it, one that fits nothing), and a rule — made through the API as a
 * person would.
 */
import { createApiClient } from '../../../src-shared/api-client';
import { bankAccountRoutes } from '../../../src-shared/contract/bank-accounts';
import { categoryRoutes } from '../../../src-shared/contract/categories';
import { inboxRoutes } from '../../../src-shared/contract/inbox';
import { ruleRoutes } from '../../../src-shared/contract/rules';
import { transactionRoutes } from '../../../src-shared/contract/transactions';
import { type Receipt, receiptPdf } from '../../fixtures/receipts';
import type { UiServer } from './ui-server';

/** A German till receipt as the extraction tests print them: merchant, date, total and VAT (19 %). */
export function tillReceipt(merchant: string, day: string, total: string, vat: string): Receipt {
  const [y, m, d] = day.split('-');
  return {
    key: merchant,
    merchant,
    lines: [
      merchant,
      'Hauptstraße 1, 10115 Berlin',
      `Datum: ${d}.${m}.${y} 10:12`,
      ['1 x Artikel', total],
      ['Summe EUR', total],
      ['inkl. 19% MwSt', vat],
    ],
    truth: { date: day, amountMinor: 0, currency: 'EUR', vatMinor: null, vatRate: 19 },
  };
}

export async function seedInboxAndRules(ui: UiServer, key: string): Promise<void> {
  const c = createApiClient({ baseUrl: ui.url, token: () => key });
  const account = await c.call(bankAccountRoutes.create, { body: { name: 'Company card', currency: 'EUR' } });
  const day = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  await c.call(transactionRoutes.create, {
    body: { bankAccountId: account.id, name: 'SUMUP *4411 CARD', amount: -87.35, currency: 'EUR', date: day },
  });
  for (const [file, r] of [
    ['bergblick.pdf', tillReceipt('Bergblick Kiosk', day, '87,35', '13,95')],
    ['papierhaus.pdf', tillReceipt('Papierhaus Mitte', day, '1.212,40', '193,58')],
  ] as const) {
    const content = (await receiptPdf(r)).toString('base64');
    await c.call(inboxRoutes.upload, { body: { fileName: file, content } });
  }
  const software = (await c.call(categoryRoutes.list)).data.find((x) => x.parentId && !x.system)!;
  await c.call(ruleRoutes.create, {
    body: {
      name: 'Hosting',
      conditions: {
        all: [
          { field: 'name', op: 'contains', value: 'hosting' },
          { field: 'amount', op: 'sign', value: 'expense' },
        ],
      },
      actions: [{ type: 'set_category', categorySlug: software.slug }],
    },
  });
}
