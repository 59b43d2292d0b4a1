import { describe, expect, it } from 'vitest';
import {
  defaultLineRate,
  invoiceDateFormat,
  reverseChargeNote,
  standardVatRate,
  teamDefaultRate,
  vatSituation,
} from '../../../src-shared/domain/invoice-vat';

describe('the VAT situation of an invoice', () => {
  it.each([
    ['DE', 'DE', 'DE987654321', 'domestic'],
    ['DE', 'AT', 'ATU12345678', 'reverse_charge'],
    ['DE', 'at', 'ATU12345678', 'reverse_charge'],
    ['DE', 'AT', null, 'domestic'], // a consumer elsewhere in the EU
    ['DE', 'AT', '  ', 'domestic'],
    ['DE', 'CH', 'CHE-123.456.789', 'domestic'], // outside the EU: the person decides
    ['GB', 'DE', 'DE987654321', 'domestic'], // a team outside the EU
    [null, 'AT', 'ATU12345678', 'domestic'],
    ['DE', null, 'ATU12345678', 'domestic'],
  ] as const)('%s → %s (%s): %s', (from, to, vat, want) => {
    expect(vatSituation({ countryCode: from }, { countryCode: to, vatNumber: vat })).toBe(want);
  });

  it('starts a line at 0 % under reverse charge, else its category rate, else the team default', () => {
    expect(defaultLineRate('reverse_charge', 7, 19)).toBe(0);
    expect(defaultLineRate('domestic', 7, 19)).toBe(7);
    expect(defaultLineRate('domestic', null, 19)).toBe(19);
    expect(defaultLineRate('domestic', 0, 19)).toBe(0);
  });

  it('words the reverse-charge note in the invoice language, English for others', () => {
    expect(reverseChargeNote('de-DE')).toContain('Steuerschuldnerschaft des Leistungsempfängers');
    expect(reverseChargeNote('fr')).toContain('Autoliquidation');
    expect(reverseChargeNote('ja-JP')).toContain('Reverse charge');
  });

  it.each([
    ['de-DE', 'dd.MM.yyyy'],
    ['de-AT', 'dd.MM.yyyy'],
    ['en-US', 'MM/dd/yyyy'],
    ['en-GB', 'dd/MM/yyyy'],
    ['fr-FR', 'dd/MM/yyyy'],
    ['nl-NL', 'dd-MM-yyyy'],
    ['sv-SE', 'yyyy-MM-dd'],
  ])('writes %s dates as %s', (locale, format) => {
    expect(invoiceDateFormat(locale)).toBe(format);
  });
});

describe('the rate a team’s lines start with', () => {
  const template = (vatRate: number, includeVat = true, vatExemptionReason: string | null = null) => ({
    vatRate,
    includeVat,
    vatExemptionReason,
  });
  it('is the team’s own rate, else its country’s standard rate, else none', () => {
    expect(teamDefaultRate(template(7), 'DE')).toBe(7);
    expect(teamDefaultRate(template(0), 'DE')).toBe(19); // the 0 % a German customer got
    expect(teamDefaultRate(template(0), 'at')).toBe(20);
    expect(teamDefaultRate(template(0), 'FI')).toBe(25.5);
    expect(teamDefaultRate(template(0), null)).toBe(0);
    expect(teamDefaultRate(template(0), 'US')).toBe(0);
    expect(standardVatRate('ZZ')).toBeNull();
  });
  it('is none for a team that charges no VAT (a small business says why)', () => {
    expect(teamDefaultRate(template(0, false), 'DE')).toBe(0);
    expect(teamDefaultRate(template(0, true, 'Kleinunternehmer gemäß § 19 UStG'), 'DE')).toBe(0);
  });
});
