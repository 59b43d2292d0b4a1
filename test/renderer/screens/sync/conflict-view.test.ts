import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../../../src-renderer/i18n';
import { setFormatPreferences } from '../../../../src-renderer/lib/format';
import {
  conflictFields,
  fieldLabel,
  phaseText,
  recordLabel,
  remoteUrlProblem,
  sideText,
} from '../../../../src-renderer/screens/sync/conflict-view';
import { expectRound, IDLE_POLL_MS, pollInterval, RUNNING_POLL_MS } from '../../../../src-renderer/screens/sync/use-sync-status';
import type { SyncStatusBody } from '../../../../src-shared/contract/app-sync';

const base = { entity: 'transaction', recordId: 'tx_0123456789', base: null };

describe('how a conflict reads', () => {
  it('names the record by the name on either side, else by its id', () => {
    expect(recordLabel({ ...base, local: { name: 'Taxi' }, remote: { name: 'Cab' } })).toBe('Transaction “Taxi”');
    expect(recordLabel({ ...base, local: null, remote: { name: 'Cab' } })).toBe('Transaction “Cab”');
    expect(recordLabel({ ...base, entity: 'tracker_entry', local: {}, remote: {} })).toBe('Time entry tx_01234');
  });

  it('names records without a name by what a person knows them by', () => {
    const invoice = { ...base, entity: 'invoice' };
    expect(
      recordLabel({ ...invoice, local: { invoiceNumber: null, customerName: 'Acme' }, remote: { invoiceNumber: 'INV-0578' } }),
    ).toBe('Invoice “INV-0578”');
    expect(recordLabel({ ...invoice, local: { invoiceNumber: null, customerName: 'Acme' }, remote: null })).toBe(
      'Invoice “Acme”',
    );
    expect(recordLabel({ ...base, entity: 'tracker_entry', local: { description: 'Workshop' }, remote: null })).toBe(
      'Time entry “Workshop”',
    );
    expect(recordLabel({ ...base, local: { description: '', counterpartyName: 'Rewe' }, remote: null })).toBe(
      'Transaction “Rewe”',
    );
    expect(recordLabel({ ...base, local: { date: '2026-03-03' }, remote: null })).toBe('Transaction “2026-03-03”');
    const lines = [
      { name: 'Consulting', quantity: 2, unit: 'h', priceMinor: 50000, priceScale: 0 },
      { name: 'Travel', quantity: 1.5, unit: null, priceMinor: 8000, priceScale: 0 },
    ];
    expect(sideText({ currency: 'EUR', lineItems: lines }, 'lineItems')).toBe('Consulting · 2 × €500.00; Travel · 1.50 × €80.00');
  });

  it('turns projection values back into what the screens show', () => {
    const tx = { amountMinor: -1850, currency: 'EUR', date: '2026-03-03', internal: true, tags: ['t1', 't2'], note: '' };
    const names = (id: string) => ({ t1: 'Travel' })[id];
    expect(sideText(tx, 'amountMinor')).toBe('-€18.50');
    expect(sideText({ amountMinor: 1200, currency: 'JPY' }, 'amountMinor')).toBe('¥1,200');
    expect(sideText(tx, 'date')).toBe('2026-03-03');
    expect(sideText(tx, 'internal')).toBe('Yes');
    expect(sideText(tx, 'tags', names)).toBe('Travel, t2');
    expect(sideText({ tags: [] }, 'tags')).toBe('none');
    expect(sideText(tx, 'note')).toBe('—');
    expect(sideText({ splits: [{ amountMinor: 1 }, { amountMinor: 2 }] }, 'splits')).toBe('2 parts');
    expect(sideText(null, 'name')).toBe('Deleted');
  });

  it('shows the fields in conflict, or the name of a record deleted on one side', () => {
    expect(conflictFields({ fields: ['amountMinor', 'splits'], local: {}, remote: {} })).toEqual(['amountMinor', 'splits']);
    expect(conflictFields({ fields: [], local: null, remote: { name: 'Cab', note: 'x' } })).toEqual(['name']);
    expect(fieldLabel('amountMinor')).toBe('Amount');
    expect(fieldLabel('counterpartyName')).toBe('Counterparty');
    expect(fieldLabel('billingEmail')).toBe('Billing email');
  });

  it('accepts only http(s) base URLs ending in /v1, as the server does', () => {
    expect(remoteUrlProblem('https://finops.example.com/v1')).toBeUndefined();
    expect(remoteUrlProblem('http://127.0.0.1:4100/v1/')).toBeUndefined();
    for (const bad of ['finops.example.com/v1', 'ftp://x/v1', 'https://x/api', 'https://x/v1?x=1', ''])
      expect(remoteUrlProblem(bad), bad).toBe('Enter an http or https address whose path ends in /v1.');
  });
});

describe('a round’s progress', () => {
  it('names the phase, the records a generic remote walks, and how far it is', () => {
    expect(phaseText('pull', 3, 40)).toBe('Receiving 3 of 40');
    expect(phaseText('walk transaction', 0, 0)).toBe('Comparing transactions');
    expect(phaseText('walk invoice_item', 0, 0)).toBe('Comparing invoice item');
    expect(phaseText(null, 0, 0)).toBe('Working');
  });
});

describe('in German', () => {
  afterEach(async () => {
    setFormatPreferences({ locale: 'en', dateFormat: 'yyyy-MM-dd' });
    await i18n.changeLanguage('en');
  });

  it('says records, values and progress in German words and formats', async () => {
    setFormatPreferences({ locale: 'de-DE', dateFormat: 'dd.MM.yyyy' });
    await i18n.changeLanguage('de');
    expect(recordLabel({ ...base, local: { name: 'Taxi' }, remote: { name: 'Cab' } })).toBe('Umsatz „Taxi“');
    const tx = { amountMinor: -185050, currency: 'EUR', date: '2026-03-03', internal: false };
    expect(sideText(tx, 'amountMinor')).toBe('-1.850,50 €');
    expect(sideText(tx, 'date')).toBe('03.03.2026');
    expect(sideText(tx, 'internal')).toBe('Nein');
    expect(sideText({ splits: [1, 2, 3] }, 'splits')).toBe('3 Teile');
    expect(fieldLabel('counterpartyName')).toBe('Gegenpartei');
    expect(phaseText('walk tag', 1200, 3400)).toBe('Abgleichen: Schlagwörter 1.200 von 3.400');
  });
});

describe('status polling', () => {
  const status = (state: 'idle' | 'running') => ({ remote: { state } }) as unknown as SyncStatusBody;
  it('polls every second while a round runs or was just asked for, else slowly', () => {
    expect(pollInterval(status('running'), 0)).toBe(RUNNING_POLL_MS);
    expect(pollInterval(status('idle'), 0)).toBe(IDLE_POLL_MS);
    expectRound(1000);
    expect(pollInterval(status('idle'), 2000)).toBe(RUNNING_POLL_MS);
    expect(pollInterval(status('idle'), 60_000)).toBe(IDLE_POLL_MS);
  });
});
