/**
 * ~150 customers of a Berlin design & development agency: mostly German, the rest from the EU, the UK, Switzerland
 * and the US. Each has a contact person, full address with a valid ISO 3166-1 alpha-2 country code, e-mails at a
 * reserved `.example` domain, a VAT number in its country's format (US companies have none; a fifth of German small
 * businesses have not given one), 0–2 tags and an activity weight: a long tail of small clients, a few big ones,
 * and about a quarter prospects who never get an invoice.
 *
 * VAT treatment of the agency's invoices follows from the customer (the agency is German): domestic customers pay
 * 19 % German VAT; EU businesses with a VAT number are reverse-charged (0 %); everyone else is an export (0 %).
 */

import type { SeedCustomer } from '../store/demo/seed-records';
import type { EpochDay } from './calendar';
import { COMPANY_NOUNS, COMPANY_WORDS, COUNTRIES, type Country, FIRST_NAMES, LAST_NAMES, slugify } from './catalog';
import type { DemoWindow, MakeId } from './context';
import type { Prng } from './prng';

export type VatTreatment = 'domestic' | 'reverse-charge' | 'export';

/** A customer: the columns the store writes (store/demo/bulk-seed.ts), its tags by name, and planning facts. */
export interface DemoCustomer extends Omit<SeedCustomer, 'tagIds' | 'createdAt'> {
  tagNames: string[];
  /** Day the customer was added. */
  since: EpochDay;
  /** Relative invoicing activity; 0 for prospects. */
  activity: number;
  invoiceCurrency: 'EUR' | 'USD';
  vat: VatTreatment;
  /** Index into RETAINERS when the customer is on a monthly retainer. */
  retainer: number | null;
}

export const CUSTOMER_COUNT = 150;
const HOME_COUNTRY = 'DE';

export function generateCustomers(rng: Prng, w: DemoWindow, makeId: MakeId, count = CUSTOMER_COUNT): DemoCustomer[] {
  const names = new Set<string>();
  const combos = rng.shuffle(COMPANY_WORDS.flatMap((word) => COMPANY_NOUNS.map((noun) => [word, noun] as const)));
  const customers: DemoCustomer[] = [];
  let retainers = 0;
  for (let i = 0; i < count; i++) {
    const country: Country = rng.weighted(COUNTRIES, (c) => c.weight);
    const [word, noun] = combos[i % combos.length]!;
    const suffix = rng.pick(country.legalSuffixes);
    let name = `${word} ${noun} ${suffix}`;
    if (names.has(name)) name = `${word} ${noun} ${country.cities[0]!.city} ${suffix}`;
    names.add(name);
    const domain = `${slugify(`${word}-${noun}`)}.example`;
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const city = rng.pick(country.cities);
    const hasVat = country.code === HOME_COUNTRY ? rng.chance(0.8) : true;
    const vatNumber = hasVat ? country.vatNumber(rng) : null;
    const prospect = rng.chance(0.25);
    // Pareto-ish activity: most clients are small, a few account for much of the revenue.
    const activity = prospect ? 0 : Math.min(12, 1 / (1 - rng.next()) ** 0.9) * (country.code === 'US' ? 2.5 : 1);
    const invoiceCurrency = country.currency === 'USD' ? 'USD' : 'EUR';
    const vat: VatTreatment = country.code === HOME_COUNTRY ? 'domestic' : country.eu && vatNumber ? 'reverse-charge' : 'export';
    // Some customers have been clients since before the window; the rest arrive over it.
    const since = rng.chance(0.35) ? w.first - rng.int(30, 700) : rng.int(w.first, w.asOf - 5);
    const retainer = !prospect && retainers < 6 && activity > 2 && since < w.asOf - 200 ? retainers++ % 4 : null;
    customers.push({
      id: makeId(),
      name,
      email: `${slugify(first)}.${slugify(last)}@${domain}`,
      billingEmail: rng.chance(0.6) ? `${rng.pick(['invoices', 'billing', 'accounts', 'finance'])}@${domain}` : null,
      phone: `${country.phonePrefix} ${rng.int(20, 89)} ${rng.digits(7)}`,
      website: `https://www.${domain}`,
      contact: `${first} ${last}`,
      country: country.name,
      countryCode: country.code,
      addressLine1: `${rng.pick(country.streets)} ${rng.int(1, 180)}`,
      addressLine2: rng.chance(0.2) ? rng.pick(['2nd floor', 'Building B', 'Suite 300', 'c/o Accounts Payable']) : null,
      city: city.city,
      state: city.state,
      zip: city.zip(rng),
      vatNumber,
      peppolId: vatNumber && country.peppolScheme && rng.chance(0.3) ? `${country.peppolScheme}:${vatNumber}` : null,
      note: rng.chance(0.15)
        ? rng.pick([
            'Prefers invoices in English.',
            'Purchase order number required on every invoice.',
            'Pays reliably, usually a few days early.',
            'Send invoices to the billing address only.',
            'Referred by a partner agency.',
          ])
        : null,
      tagNames: rng.sample(['enterprise', 'startup', 'non-profit', 'partner', 'priority', 'project'], rng.int(0, 2)),
      since,
      activity,
      invoiceCurrency,
      vat,
      retainer,
    });
  }
  for (const c of customers) {
    if (c.retainer !== null && !c.tagNames.includes('retainer')) c.tagNames.push('retainer');
  }
  return customers;
}
