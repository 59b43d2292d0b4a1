import { describe, expect, it } from 'vitest';
import { issueRequirements, type RequirementInput } from '../../../src-shared/domain/invoice-requirements';

const party = {
  name: 'Nordlicht GmbH',
  addressLine1: 'Friedrichstraße 12',
  city: 'Berlin',
  zip: '10117',
  countryCode: 'DE',
  vatNumber: 'DE123456789',
};
const complete: RequirementInput = {
  invoiceNumber: 'INV-0001',
  lines: [{ name: 'Beratung', vatRate: 19 }],
  includeVat: true,
  vatCategory: null,
  vatExemptionReason: null,
  paymentDetails: null,
  fromDetails: null,
  customerDetails: null,
  seller: { ...party, iban: 'DE89370400440532013000' },
  buyer: { ...party, name: 'Kunde AG', vatNumber: null },
  situation: 'domestic',
};
const rules = (change: Partial<RequirementInput>) =>
  issueRequirements({ ...complete, ...change }).map((f) => `${f.rule} ${f.field}`);

describe('what an invoice must state before it is issued', () => {
  it('passes a complete invoice', () => {
    expect(rules({})).toEqual([]);
  });

  it('asks for the seller VAT number, or takes its tax number for it', () => {
    expect(rules({ seller: { ...complete.seller, vatNumber: null } })).toEqual(['ART226-3 BT-31 team.vatNumber']);
    expect(rules({ seller: { ...complete.seller, vatNumber: null, taxNumber: '30/123/45678' } })).toEqual([]);
  });

  it("asks for the customer's VAT number under reverse charge or an intra-EU supply", () => {
    expect(rules({ situation: 'reverse_charge', vatCategory: 'AE' })).toEqual(['ART226-4 BT-48 customer.vatNumber']);
    expect(rules({ vatCategory: 'K', lines: [{ name: 'x', vatRate: 0 }], vatExemptionReason: 'Intra-EU' })).toEqual([
      'ART226-4 BT-48 customer.vatNumber',
    ]);
  });

  it('asks for each missing part of both addresses, unless a text block gives one', () => {
    expect(rules({ buyer: { ...complete.buyer, addressLine1: null, zip: ' ' } })).toEqual([
      'ART226-5 BT-50 customer.address',
      'ART226-5 BT-53 customer.zip',
    ]);
    expect(rules({ seller: { ...complete.seller, name: '', city: null }, fromDetails: 'Nordlicht GmbH\nTorstraße 1' })).toEqual(
      [],
    );
    expect(rules({ seller: { ...complete.seller, city: null }, fromDetails: 'Nordlicht GmbH' })).toEqual([
      'ART226-5 BT-37 team.city',
    ]);
  });

  it('asks why no VAT is charged, except under reverse charge, which carries its note', () => {
    expect(rules({ lines: [{ name: 'x', vatRate: 0 }] })).toEqual(['ART226-11 template.vatExemptionReason']);
    expect(rules({ includeVat: false })).toEqual(['ART226-11 template.vatExemptionReason']);
    expect(rules({ includeVat: false, vatExemptionReason: 'Kleinunternehmer gemäß § 19 UStG' })).toEqual([]);
    expect(
      rules({ lines: [{ name: 'x', vatRate: 0 }], vatCategory: 'AE', buyer: { ...complete.buyer, vatNumber: 'ATU1' } }),
    ).toEqual([]);
  });

  it('asks for a line, a number, and where to pay', () => {
    expect(rules({ lines: [] })).toEqual(['ART226-6 lineItems']);
    expect(rules({ invoiceNumber: ' ' })).toEqual(['ART226-2 invoiceNumber']);
    expect(rules({ invoiceNumber: null })).toEqual([]); // numbered by the sync remote
    expect(rules({ seller: { ...complete.seller, iban: null } })).toEqual(['FD-PAY bankAccount.iban']);
    expect(rules({ seller: { ...complete.seller, iban: null }, paymentDetails: 'PayPal: pay@nordlicht.example' })).toEqual([]);
  });
});
