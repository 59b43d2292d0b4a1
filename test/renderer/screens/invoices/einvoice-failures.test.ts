import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { resources } from '../../../../src-renderer/i18n';
import {
  eInvoiceFileName,
  failureView,
  failureViews,
  WORDED_RULES,
} from '../../../../src-renderer/screens/invoices/einvoice-failures';
import type { RuleFailure } from '../../../../src-shared/contract/errors';
import { mapInvoice } from '../../../../src-shared/domain/einvoice/from-invoice';
import type { EInvoice } from '../../../../src-shared/domain/einvoice/model';
import { checkEInvoice, RULE_IDS } from '../../../../src-shared/domain/einvoice/rules';
import { BUYERS, invoiceOf, line, SELLER } from '../../../shared/domain/einvoice/sources';

/**
 * The rule list of the invoice screen: every failure the server's rules give is said in the user's language (en and
 * de complete) with its field named, and points where it is fixed.
 */

const i18n = createInstance();
void i18n.init({ resources, lng: 'en', fallbackLng: false, initAsync: false, interpolation: { escapeValue: false } });

/** What the screen says for a failure in a language; null where a key is missing there. */
function said(language: 'en' | 'de' | 'fr', f: RuleFailure): { message: string | null; field: string | null } {
  const t = i18n.getFixedT(language, 'einvoice');
  const v = failureView(f);
  const vars = { ...v.vars, category: v.vars.category ? t(`categories.${v.vars.category}`) : undefined };
  const get = (key: string | null) => (key && i18n.exists(key, { lng: language, ns: 'einvoice' }) ? t(key, vars) : null);
  return { message: get(v.messageKey), field: get(v.fieldKey) };
}

/** Real failures of the server's rules: invoices of every category with parts taken away, for every format's CIUS. */
function realFailures(): RuleFailure[] {
  const broken: EInvoice[] = [];
  const cases = [
    invoiceOf([line('Consulting', 3, 15000), line('Book', 1, 2490, 'pcs', 7)]),
    invoiceOf([line('Licence', 1, 250000)], { includeVat: false, vatCategory: 'AE' }),
    invoiceOf([line('Hardware', 2, 189900, 'pcs')], { includeVat: false, vatCategory: 'K' }),
    invoiceOf([line('Tutoring', 4, 4000)], { includeVat: false, vatCategory: 'E' }),
    invoiceOf([line('Books', 10, 1200, 'pcs', 0)], { vatCategory: 'Z', vatExemptionReason: 'none' }),
  ];
  for (const source of cases) {
    const inv = mapInvoice(
      source,
      { ...SELLER, vatNumber: '123', peppolId: '9999:x', phone: null, city: null, zip: null },
      { ...BUYERS.be, vatNumber: null, peppolId: null, email: null, buyerReference: null, city: null, zip: null },
    ).invoice;
    const first = inv.lines[0];
    if (first) {
      first.name = '';
      first.unitCode = '';
      first.rate = inv.lines[0]?.category === 'S' ? 0 : 5;
    }
    inv.totals.payableMinor += 1;
    inv.dueDate = null;
    broken.push(inv);
  }
  return broken.flatMap((inv) => (['en16931', 'xrechnung', 'peppol'] as const).flatMap((cius) => checkEInvoice(inv, cius)));
}

describe('a failed e-invoice rule on the screen', () => {
  it('has a message in the catalogue for every rule the server checks (or is a per-category rule)', () => {
    const unworded = [...RULE_IDS, 'FD-TAX'].filter((id) => !WORDED_RULES.has(id) && !/^BR-(S|Z|E|AE|IC|G)-\d\d$/.test(id));
    expect(unworded).toEqual([]);
  });

  it('is said in English, German and French with its field named, nothing left unfilled', () => {
    const failures = realFailures();
    const rules = new Set(failures.map((f) => f.rule));
    expect(rules.size).toBeGreaterThanOrEqual(25);
    const unsaid: string[] = [];
    for (const f of failures) {
      for (const language of ['en', 'de', 'fr'] as const) {
        const { message, field } = said(language, f);
        if (!message || /\{\{/.test(message)) unsaid.push(`${language} ${f.rule}: message`);
        if (!field || /\{\{/.test(field)) unsaid.push(`${language} ${f.rule} ${f.field}: field`);
      }
    }
    expect(unsaid).toEqual([]);
  });

  it('says a per-category rule with its category and line, and a rule about either party for the right one', () => {
    expect(said('en', { rule: 'BR-AE-02', field: 'BT-48 customer.vatNumber', message: '' }).message).toBe(
      'Lines taxed as reverse charge need the customer’s VAT number on the invoice.',
    );
    expect(said('de', { rule: 'BR-S-05', field: 'BT-152 lineItems.1.vat', message: '' })).toEqual({
      message: 'Position 2 (Regelsteuersatz) braucht einen Steuersatz über 0 %.',
      field: 'Position 2 › Steuersatz',
    });
    expect(said('en', { rule: 'FD-PEPPOL-ID', field: 'BT-34 team.peppolId', message: '' }).message).toMatch(/^Your team’s/);
    expect(said('en', { rule: 'BR-IC-02', field: 'BT-31 team.vatNumber', message: '' }).message).toBe(
      'Lines taxed as intra-community supply need your team’s VAT number on the invoice.',
    );
    // BR-IC-11 and -12 look like per-category rules but have words of their own.
    expect(said('de', { rule: 'BR-IC-12', field: 'BT-80 customer.countryCode', message: '' }).message).toMatch(/Land des Kunden/);
    expect(said('en', { rule: 'BR-IC-11', field: 'BT-72 supplyDate', message: '' }).message).toMatch(/date of supply/);
    expect(failureView({ rule: 'BR-IC-12', field: 'BT-80 customer.countryCode', message: '' }).fix).toEqual({
      kind: 'customer',
      field: 'countryCode',
    });
  });

  it('keeps the server’s words for a rule it does not know (the schema’s)', () => {
    const v = failureView({ rule: 'XSD', field: '/rsm:CrossIndustryInvoice/ram:Foo', message: 'Element Foo is not expected' });
    expect(v).toMatchObject({ messageKey: null, fieldKey: null, term: null, message: 'Element Foo is not expected' });
    expect(v.fix).toEqual({ kind: 'invoice' });
  });

  it('points to where it is fixed', () => {
    const fix = (field: string) => failureView({ rule: 'R', field, message: '' }).fix;
    expect(fix('BT-48 customer.vatNumber')).toEqual({ kind: 'customer', field: 'vatNumber' });
    expect(fix('BG-8 customer.address')).toEqual({ kind: 'customer', field: 'addressLine1' });
    expect(fix('BT-10 customer.buyerReference')).toEqual({ kind: 'customer', field: 'buyerReference' });
    expect(fix('BT-42 team.phone')).toEqual({ kind: 'team', field: 'phone' });
    expect(fix('BT-34 team.peppolId')).toEqual({ kind: 'team', field: 'peppolId' });
    expect(fix('BT-31 team.vatNumber')).toEqual({ kind: 'settings', path: '/team-settings' });
    expect(fix('BT-84 bankAccount.iban')).toEqual({ kind: 'settings', path: '/team-settings?tab=accounts' });
    expect(fix('BT-9 dueDate')).toEqual({ kind: 'invoice' });
    expect(fix('tax')).toEqual({ kind: 'invoice' });
  });

  it('lists what the customer form fixes first, then the team’s, then the invoice’s, each in rule order', () => {
    const views = failureViews([
      { rule: 'BR-CO-25', field: 'BT-9 dueDate', message: '' },
      { rule: 'BR-DE-6', field: 'BT-42 team.phone', message: '' },
      { rule: 'BR-DE-15', field: 'BT-10 customer.buyerReference', message: '' },
      { rule: 'BR-DE-8', field: 'BT-52 customer.city', message: '' },
    ]);
    expect(views.map((v) => v.rule)).toEqual(['BR-DE-15', 'BR-DE-8', 'BR-DE-6', 'BR-CO-25']);
  });

  it('names the file as the server does', () => {
    expect(eInvoiceFileName('INV-0001', 'xrechnung-ubl', false)).toBe('INV-0001-xrechnung-ubl.xml');
    expect(eInvoiceFileName('2025/17', 'factur-x-en16931', false)).toBe('2025_17.pdf');
    expect(eInvoiceFileName('INV-0001', 'peppol-bis-3', true)).toBe('CN-INV-0001-peppol-bis-3.xml');
  });
});
