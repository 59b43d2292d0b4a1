import { describe, expect, it } from 'vitest';
import { mapInvoice } from '../../../../src-shared/domain/einvoice/from-invoice';
import type { Cius, EInvoice, IssuedVatCategory } from '../../../../src-shared/domain/einvoice/model';
import { checkEInvoice, RULE_IDS } from '../../../../src-shared/domain/einvoice/rules';
import { BUYERS, invoiceOf, line, SELLER } from './sources';

/**
 * Each business rule: an invoice that passes every rule of its format, and the same invoice changed so that this
 * rule fails, naming its id and the field.
 */

const base: Record<IssuedVatCategory, () => EInvoice> = {
  S: () => mapInvoice(invoiceOf([line('Consulting', 3, 15000), line('Book', 1, 2490, 'pcs', 7)]), SELLER, BUYERS.de).invoice,
  Z: () => mapInvoice(invoiceOf([line('Books', 10, 1200, 'pcs', 0)], { vatCategory: 'Z' }), SELLER, BUYERS.de).invoice,
  E: () =>
    mapInvoice(invoiceOf([line('Tutoring', 4, 4000)], { includeVat: false, vatExemptionReason: '§ 19 UStG' }), SELLER, BUYERS.de)
      .invoice,
  AE: () =>
    mapInvoice(invoiceOf([line('Licence', 1, 250000)], { includeVat: false, vatCategory: 'AE' }), SELLER, BUYERS.be).invoice,
  K: () =>
    mapInvoice(
      invoiceOf([line('Hardware', 2, 189900, 'pcs')], { includeVat: false, vatCategory: 'K', supplyDate: '2025-03-10' }),
      SELLER,
      BUYERS.fr,
    ).invoice,
  G: () =>
    mapInvoice(invoiceOf([line('Support', 1, 500000)], { includeVat: false, vatCategory: 'G' }), SELLER, BUYERS.fr).invoice,
};

type Case = { cius?: Cius; on?: IssuedVatCategory; breakIt: (inv: EInvoice) => void };

const firstBreakdown = (inv: EInvoice) => {
  const b = inv.vatBreakdown[0];
  if (!b) throw new Error('no breakdown');
  return b;
};
const firstLine = (inv: EInvoice) => {
  const l = inv.lines[0];
  if (!l) throw new Error('no line');
  return l;
};

/** The per-category rules (BR-S-01…, BR-IC-…): what breaks each, on an invoice of that category. */
function categoryCases(c: IssuedVatCategory): Record<string, Case> {
  const p = c === 'K' ? 'BR-IC' : `BR-${c}`;
  const exempt = c !== 'S' && c !== 'Z';
  const cases: Record<string, Case> = {
    [`${p}-01`]: {
      on: c,
      breakIt: (inv) => {
        inv.vatBreakdown = inv.vatBreakdown.filter((b) => b.category !== c);
      },
    },
    [`${p}-02`]: {
      on: c,
      breakIt: (inv) => {
        inv.seller.vatId = null;
      },
    },
    [`${p}-05`]: {
      on: c,
      breakIt: (inv) => {
        firstLine(inv).rate = c === 'S' ? 0 : 5;
      },
    },
    [`${p}-08`]: {
      on: c,
      breakIt: (inv) => {
        firstBreakdown(inv).taxableMinor += 100;
      },
    },
    [`${p}-09`]: {
      on: c,
      breakIt: (inv) => {
        firstBreakdown(inv).taxMinor += 1;
      },
    },
    [`${p}-10`]: {
      on: c,
      breakIt: (inv) => {
        const b = firstBreakdown(inv);
        if (exempt) {
          b.exemptionReason = null;
          b.exemptionReasonCode = null;
        } else b.exemptionReason = 'Exempt';
      },
    },
  };
  if (c === 'AE' || c === 'K') {
    cases[`${p}-02 (buyer)`] = {
      on: c,
      breakIt: (inv) => {
        inv.buyer.vatId = null;
      },
    };
  }
  return cases;
}

const CASES: Record<string, Case> = {
  'BR-02': {
    breakIt: (inv) => {
      inv.number = ' ';
    },
  },
  'BR-03': {
    breakIt: (inv) => {
      inv.issueDate = '';
    },
  },
  'BR-04': {
    breakIt: (inv) => {
      inv.typeCode = '' as '380';
    },
  },
  'BR-05': {
    breakIt: (inv) => {
      inv.currency = '';
    },
  },
  'BR-06': {
    breakIt: (inv) => {
      inv.seller.name = '';
    },
  },
  'BR-07': {
    breakIt: (inv) => {
      inv.buyer.name = '';
    },
  },
  'BR-08': {
    breakIt: (inv) => {
      inv.seller.address = { ...inv.seller.address, line1: null, city: null, postCode: null, countryCode: null };
    },
  },
  'BR-09': {
    breakIt: (inv) => {
      inv.seller.address.countryCode = null;
    },
  },
  'BR-10': {
    breakIt: (inv) => {
      inv.buyer.address = { ...inv.buyer.address, line1: null, city: null, postCode: null, countryCode: null };
    },
  },
  'BR-11': {
    breakIt: (inv) => {
      inv.buyer.address.countryCode = null;
    },
  },
  'BR-16': {
    breakIt: (inv) => {
      inv.lines = [];
    },
  },
  'BR-21': {
    breakIt: (inv) => {
      firstLine(inv).id = '';
    },
  },
  'BR-22': {
    breakIt: (inv) => {
      firstLine(inv).quantity = Number.NaN;
    },
  },
  'BR-23': {
    breakIt: (inv) => {
      firstLine(inv).unitCode = '';
    },
  },
  'BR-25': {
    breakIt: (inv) => {
      firstLine(inv).name = ' ';
    },
  },
  'BR-27': {
    breakIt: (inv) => {
      firstLine(inv).priceMinor = -100;
    },
  },
  'BR-CO-04': {
    breakIt: (inv) => {
      firstLine(inv).category = '' as 'S';
    },
  },
  'BR-CO-09': {
    breakIt: (inv) => {
      inv.buyer.vatId = '987654321';
    },
  },
  'BR-CO-10': {
    breakIt: (inv) => {
      inv.totals.lineNetMinor += 1;
    },
  },
  'BR-CO-11': {
    breakIt: (inv) => {
      inv.totals.allowancesMinor = 500;
    },
  },
  'BR-CO-12': {
    breakIt: (inv) => {
      inv.totals.chargesMinor = 500;
    },
  },
  'BR-CO-13': {
    breakIt: (inv) => {
      inv.totals.taxExclusiveMinor += 1;
    },
  },
  'BR-CO-14': {
    breakIt: (inv) => {
      inv.totals.vatMinor += 1;
    },
  },
  'BR-CO-15': {
    breakIt: (inv) => {
      inv.totals.taxInclusiveMinor += 1;
    },
  },
  'BR-CO-16': {
    breakIt: (inv) => {
      inv.totals.payableMinor += 1;
    },
  },
  'BR-CO-18': {
    breakIt: (inv) => {
      inv.vatBreakdown = [];
    },
  },
  'BR-CO-25': {
    breakIt: (inv) => {
      inv.dueDate = null;
      inv.paymentTerms = null;
    },
  },
  'BR-CO-26': {
    breakIt: (inv) => {
      inv.seller.vatId = null;
    },
  },
  'BR-53': {
    breakIt: (inv) => {
      inv.vatAccounting = { currency: 'EUR', vatMinor: null };
    },
  },
  'BR-55': {
    breakIt: (inv) => {
      inv.typeCode = '381';
      inv.precedingInvoice = null;
    },
  },
  'BR-61': {
    breakIt: (inv) => {
      inv.payment = inv.payment && { ...inv.payment, iban: null };
    },
  },
  'BR-62': {
    breakIt: (inv) => {
      inv.seller.electronicAddress = { scheme: '', value: 'x@y.example' };
    },
  },
  'BR-63': {
    breakIt: (inv) => {
      inv.buyer.electronicAddress = { scheme: '', value: 'x@y.example' };
    },
  },
  'BR-IC-11': {
    on: 'K',
    breakIt: (inv) => {
      inv.supply = { date: null, periodStart: null, periodEnd: null };
    },
  },
  'BR-IC-12': {
    on: 'K',
    breakIt: (inv) => {
      if (inv.delivery) inv.delivery.address.countryCode = null;
    },
  },
  'BR-IC-12 (no deliver-to address)': {
    on: 'K',
    breakIt: (inv) => {
      inv.delivery = null;
    },
  },
  'BR-DEC-09': {
    breakIt: (inv) => {
      inv.currency = 'BHD';
    },
  },
  ...categoryCases('S'),
  ...categoryCases('Z'),
  ...categoryCases('E'),
  ...categoryCases('AE'),
  ...categoryCases('K'),
  ...categoryCases('G'),
  'BR-DE-1': {
    cius: 'xrechnung',
    breakIt: (inv) => {
      inv.payment = null;
    },
  },
  'BR-DE-2': {
    cius: 'xrechnung',
    breakIt: (inv) => {
      inv.seller.contact = null;
    },
  },
  'BR-DE-3': {
    cius: 'xrechnung',
    breakIt: (inv) => {
      inv.seller.address.city = null;
    },
  },
  'BR-DE-4': {
    cius: 'xrechnung',
    breakIt: (inv) => {
      inv.seller.address.postCode = null;
    },
  },
  'BR-DE-5': {
    cius: 'xrechnung',
    breakIt: (inv) => {
      inv.seller.contact = inv.seller.contact && { ...inv.seller.contact, name: null };
    },
  },
  'BR-DE-6': {
    cius: 'xrechnung',
    breakIt: (inv) => {
      inv.seller.contact = inv.seller.contact && { ...inv.seller.contact, phone: null };
    },
  },
  'BR-DE-7': {
    cius: 'xrechnung',
    breakIt: (inv) => {
      inv.seller.contact = inv.seller.contact && { ...inv.seller.contact, email: null };
    },
  },
  'BR-DE-8': {
    cius: 'xrechnung',
    breakIt: (inv) => {
      inv.buyer.address.city = null;
    },
  },
  'BR-DE-9': {
    cius: 'xrechnung',
    breakIt: (inv) => {
      inv.buyer.address.postCode = null;
    },
  },
  'BR-DE-10': {
    cius: 'xrechnung',
    on: 'K',
    breakIt: (inv) => {
      if (inv.delivery) inv.delivery.address.city = null;
    },
  },
  'BR-DE-11': {
    cius: 'xrechnung',
    on: 'K',
    breakIt: (inv) => {
      if (inv.delivery) inv.delivery.address.postCode = null;
    },
  },
  'BR-DE-16': {
    cius: 'xrechnung',
    on: 'E',
    breakIt: (inv) => {
      inv.seller.vatId = null;
      inv.seller.legalId = 'HRB 1';
    },
  },
  'BR-DE-15': {
    cius: 'xrechnung',
    breakIt: (inv) => {
      inv.buyerReference = null;
    },
  },
  'XR-BT-34': {
    cius: 'xrechnung',
    breakIt: (inv) => {
      inv.seller.electronicAddress = null;
    },
  },
  'XR-BT-49': {
    cius: 'xrechnung',
    breakIt: (inv) => {
      inv.buyer.electronicAddress = null;
    },
  },
  'PEPPOL-EN16931-R003': {
    cius: 'peppol',
    breakIt: (inv) => {
      inv.buyerReference = null;
    },
  },
  'PEPPOL-EN16931-R010': {
    cius: 'peppol',
    breakIt: (inv) => {
      inv.buyer.electronicAddress = null;
    },
  },
  'PEPPOL-EN16931-R020': {
    cius: 'peppol',
    breakIt: (inv) => {
      inv.seller.electronicAddress = null;
    },
  },
  ...Object.fromEntries(
    (
      [
        ['PEPPOL-COMMON-R040', '0088', '4000001000006'],
        ['PEPPOL-COMMON-R041', '0192', '745707328'],
        ['PEPPOL-COMMON-R042', '0184', 'DK1234567'],
        ['PEPPOL-COMMON-R043', '0208', '0403019262'],
        ['PEPPOL-COMMON-R049', '0007', '5566778898'],
        ['PEPPOL-COMMON-R050', '0151', '51824753557'],
      ] as const
    ).map(([id, scheme, value]): [string, Case] => [
      id,
      {
        cius: 'peppol',
        breakIt: (inv) => {
          inv.buyer.electronicAddress = { scheme, value };
        },
      },
    ]),
  ),
  'PEPPOL-COMMON-R040 (seller)': {
    cius: 'peppol',
    breakIt: (inv) => {
      inv.seller.electronicAddress = { scheme: '0088', value: '1234567890123' };
    },
  },
  'FD-PEPPOL-ID': {
    cius: 'peppol',
    breakIt: (inv) => {
      inv.buyer.electronicAddress = { scheme: '0037', value: '12345' };
    },
  },
};

describe('EN 16931 business rules', () => {
  for (const [name, c] of Object.entries(CASES)) {
    const id = name.split(' ')[0] ?? name;
    const cius = c.cius ?? 'en16931';
    it(`${name}: passes on a valid invoice, fails when broken`, () => {
      const inv = base[c.on ?? 'S']();
      expect(checkEInvoice(inv, cius)).toEqual([]);
      c.breakIt(inv);
      const failures = checkEInvoice(inv, cius).filter((f) => f.rule === id);
      expect(failures.length).toBeGreaterThan(0);
      for (const f of failures) {
        expect(f.field).toMatch(/^(BT|BG)-\d+/);
        expect(f.message.length).toBeGreaterThan(10);
      }
    });
  }

  it('has a passing and a failing case for every rule', () => {
    const covered = new Set(Object.keys(CASES).map((k) => k.split(' ')[0]));
    expect(RULE_IDS.filter((id) => !covered.has(id))).toEqual([]);
    expect(RULE_IDS.length).toBeGreaterThanOrEqual(80);
  });

  it('takes a seller tax number (BT-32) for its VAT id where EN 16931 does (S, Z, E, AE), not for K and G', () => {
    for (const c of ['S', 'Z', 'E', 'AE', 'K', 'G'] as const) {
      const inv = base[c]();
      inv.seller.vatId = null;
      inv.seller.legalId = 'HRB 234567 B';
      inv.seller.taxRegistrationId = '21/815/08150';
      const p = c === 'K' ? 'BR-IC' : `BR-${c}`;
      const failing = checkEInvoice(inv, 'en16931').map((f) => f.rule);
      expect(failing, c).toEqual(c === 'K' || c === 'G' ? [`${p}-02`] : []);
    }
  });

  it('identifies a seller without a VAT id by its legal registration id (BR-CO-26: BT-30)', () => {
    const inv = base.E();
    inv.seller.vatId = null;
    inv.seller.taxRegistrationId = '21/815/08150';
    expect(checkEInvoice(inv, 'en16931').map((f) => f.rule)).toEqual(['BR-CO-26']);
    inv.seller.legalId = 'HRB 234567 B';
    expect(checkEInvoice(inv, 'xrechnung')).toEqual([]);
  });

  it('applies a CIUS rule only to its formats', () => {
    const inv = base.S();
    inv.buyerReference = null;
    expect(checkEInvoice(inv, 'en16931')).toEqual([]);
    expect(checkEInvoice(inv, 'xrechnung').map((f) => f.rule)).toEqual(['BR-DE-15']);
    expect(checkEInvoice(inv, 'peppol').map((f) => f.rule)).toEqual(['PEPPOL-EN16931-R003']);
  });
});

describe('mapping an invoice', () => {
  it('reports a discount taken after VAT as BR-CO-17-style failures, never re-taxing it', () => {
    const { invoice } = mapInvoice(invoiceOf([line('Consulting', 10, 10000)], { discountMinor: 5000 }), SELLER, BUYERS.de);
    expect(invoice.totals.payableMinor).toBe(100000 + 19000 - 5000);
    expect(invoice.allowancesCharges).toEqual([
      { charge: false, amountMinor: 5000, reason: 'Discount', category: 'S', rate: 19 },
    ]);
    expect(checkEInvoice(invoice, 'en16931').map((f) => f.rule)).toEqual(['BR-S-09']);
  });

  it('reports a sales tax beside VAT (FD-TAX)', () => {
    const { issues } = mapInvoice(invoiceOf([line('Item', 1, 1000)], { includeTax: true, taxRate: 5 }), SELLER, BUYERS.de);
    expect(issues.map((i) => i.rule)).toEqual(['FD-TAX']);
  });

  it('turns a credit line into a negative quantity at a positive price (BR-27)', () => {
    const { invoice } = mapInvoice(invoiceOf([line('Work', 2, 5000), line('Credit', 1, -1500, 'unit')]), SELLER, BUYERS.de);
    expect(invoice.lines[1]).toMatchObject({ quantity: -1, priceMinor: 1500, netMinor: -1500, category: 'S', rate: 19 });
    expect(invoice.totals.lineNetMinor).toBe(8500);
  });

  it('maps units to UN/ECE rec. 20 codes', () => {
    const { invoice } = mapInvoice(
      invoiceOf([line('a', 1, 1, 'Stunden'), line('b', 1, 1, 'Tage'), line('c', 1, 1, 'pcs'), line('d', 1, 1, 'bags')]),
      SELLER,
      BUYERS.de,
    );
    expect(invoice.lines.map((l) => l.unitCode)).toEqual(['HUR', 'DAY', 'H87', 'C62']);
  });
});
