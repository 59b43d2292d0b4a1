/**
 * Fixed vocabulary the demo generators draw from: countries with cities, postcodes and VAT-number formats, name
 * parts for companies and people, merchants for card spend, the agency's subscriptions and services. Fictional on
 * purpose: company and merchant names are invented or generic, and every e-mail address and website uses the
 * reserved `.example` top-level domain (RFC 2606), so demo data can never reach a real inbox.
 */
import type { Prng } from './prng';

export interface City {
  city: string;
  state: string | null;
  /** Builds a postcode in the country's format. */
  zip: (rng: Prng) => string;
}

export interface Country {
  code: string;
  name: string;
  currency: 'EUR' | 'USD' | 'GBP' | 'CHF' | 'SEK' | 'DKK';
  eu: boolean;
  /** Share of the agency's customers from this country (weights, not percentages). */
  weight: number;
  phonePrefix: string;
  legalSuffixes: readonly string[];
  streets: readonly string[];
  cities: readonly City[];
  /** A VAT identification number in the country's format, or null where businesses have none (the US). */
  vatNumber: (rng: Prng) => string | null;
  /** Peppol participant-id scheme for VAT-number ids, where common. */
  peppolScheme?: string;
}

const digits = (n: number) => (rng: Prng) => rng.digits(n);
const letter = (rng: Prng) => 'ABCDEFGHJKLMNPRSTUVWXYZ'[rng.int(0, 22)]!;

export const COUNTRIES: readonly Country[] = [
  {
    code: 'DE',
    name: 'Germany',
    currency: 'EUR',
    eu: true,
    weight: 52,
    phonePrefix: '+49',
    legalSuffixes: ['GmbH', 'GmbH', 'GmbH', 'AG', 'GmbH & Co. KG', 'UG (haftungsbeschränkt)', 'e.K.'],
    streets: ['Torstraße', 'Schönhauser Allee', 'Hauptstraße', 'Bahnhofstraße', 'Gartenstraße', 'Lindenallee', 'Kastanienweg'],
    cities: [
      { city: 'Berlin', state: 'Berlin', zip: (r) => `10${r.int(115, 999)}` },
      { city: 'Hamburg', state: 'Hamburg', zip: (r) => `2${r.int(1000, 2999)}` },
      { city: 'München', state: 'Bayern', zip: (r) => `80${r.int(331, 999)}` },
      { city: 'Köln', state: 'Nordrhein-Westfalen', zip: (r) => `50${r.int(667, 999)}` },
      { city: 'Frankfurt am Main', state: 'Hessen', zip: (r) => `60${r.int(311, 599)}` },
      { city: 'Leipzig', state: 'Sachsen', zip: (r) => `04${r.int(103, 357)}` },
      { city: 'Stuttgart', state: 'Baden-Württemberg', zip: (r) => `70${r.int(173, 629)}` },
    ],
    vatNumber: (r) => `DE${digits(9)(r)}`,
    peppolScheme: '9930',
  },
  {
    code: 'AT',
    name: 'Austria',
    currency: 'EUR',
    eu: true,
    weight: 8,
    phonePrefix: '+43',
    legalSuffixes: ['GmbH', 'GmbH', 'AG', 'OG'],
    streets: ['Mariahilfer Straße', 'Landstraßer Hauptstraße', 'Herrengasse', 'Annenstraße'],
    cities: [
      { city: 'Wien', state: 'Wien', zip: (r) => `1${String(r.int(1, 23)).padStart(2, '0')}0` },
      { city: 'Graz', state: 'Steiermark', zip: (r) => `80${r.int(10, 55)}` },
      { city: 'Linz', state: 'Oberösterreich', zip: (r) => `40${r.int(10, 40)}` },
    ],
    vatNumber: (r) => `ATU${digits(8)(r)}`,
    peppolScheme: '9914',
  },
  {
    code: 'CH',
    name: 'Switzerland',
    currency: 'CHF',
    eu: false,
    weight: 5,
    phonePrefix: '+41',
    legalSuffixes: ['AG', 'GmbH', 'SA'],
    streets: ['Bahnhofstrasse', 'Limmatquai', 'Rue du Rhône', 'Freie Strasse'],
    cities: [
      { city: 'Zürich', state: 'ZH', zip: (r) => `80${String(r.int(1, 57)).padStart(2, '0')}` },
      { city: 'Basel', state: 'BS', zip: (r) => `40${r.int(51, 59)}` },
      { city: 'Genève', state: 'GE', zip: (r) => `12${String(r.int(1, 9)).padStart(2, '0')}` },
    ],
    vatNumber: (r) => `CHE-${digits(3)(r)}.${digits(3)(r)}.${digits(3)(r)} MWST`,
  },
  {
    code: 'NL',
    name: 'Netherlands',
    currency: 'EUR',
    eu: true,
    weight: 6,
    phonePrefix: '+31',
    legalSuffixes: ['B.V.', 'B.V.', 'N.V.'],
    streets: ['Keizersgracht', 'Prinsengracht', 'Oudegracht', 'Coolsingel'],
    cities: [
      { city: 'Amsterdam', state: 'Noord-Holland', zip: (r) => `10${r.int(11, 99)} ${letter(r)}${letter(r)}` },
      { city: 'Rotterdam', state: 'Zuid-Holland', zip: (r) => `30${r.int(11, 89)} ${letter(r)}${letter(r)}` },
      { city: 'Utrecht', state: 'Utrecht', zip: (r) => `35${r.int(11, 85)} ${letter(r)}${letter(r)}` },
    ],
    vatNumber: (r) => `NL${digits(9)(r)}B${String(r.int(1, 99)).padStart(2, '0')}`,
    peppolScheme: '9944',
  },
  {
    code: 'FR',
    name: 'France',
    currency: 'EUR',
    eu: true,
    weight: 4,
    phonePrefix: '+33',
    legalSuffixes: ['SAS', 'SARL', 'SA'],
    streets: ['Rue de Rivoli', 'Boulevard Haussmann', 'Rue de la République', 'Avenue Jean Jaurès'],
    cities: [
      { city: 'Paris', state: 'Île-de-France', zip: (r) => `750${String(r.int(1, 20)).padStart(2, '0')}` },
      { city: 'Lyon', state: 'Auvergne-Rhône-Alpes', zip: (r) => `6900${r.int(1, 9)}` },
      { city: 'Bordeaux', state: 'Nouvelle-Aquitaine', zip: (r) => `330${r.int(0, 9)}0` },
    ],
    vatNumber: (r) => `FR${digits(2)(r)}${digits(9)(r)}`,
    peppolScheme: '9957',
  },
  {
    code: 'GB',
    name: 'United Kingdom',
    currency: 'GBP',
    eu: false,
    weight: 6,
    phonePrefix: '+44',
    legalSuffixes: ['Ltd', 'Ltd', 'LLP', 'plc'],
    streets: ['Old Street', 'Shoreditch High Street', 'Deansgate', 'King Street'],
    cities: [
      { city: 'London', state: null, zip: (r) => `EC${r.int(1, 4)}${letter(r)} ${r.int(1, 9)}${letter(r)}${letter(r)}` },
      { city: 'Manchester', state: null, zip: (r) => `M${r.int(1, 4)} ${r.int(1, 9)}${letter(r)}${letter(r)}` },
      { city: 'Bristol', state: null, zip: (r) => `BS${r.int(1, 8)} ${r.int(1, 9)}${letter(r)}${letter(r)}` },
    ],
    vatNumber: (r) => `GB${digits(9)(r)}`,
  },
  {
    code: 'US',
    name: 'United States of America',
    currency: 'USD',
    eu: false,
    weight: 11,
    phonePrefix: '+1',
    legalSuffixes: ['Inc.', 'Inc.', 'LLC', 'Corp.'],
    streets: ['Market Street', 'Broadway', 'Congress Avenue', 'Pike Street', 'Boylston Street'],
    cities: [
      { city: 'San Francisco', state: 'CA', zip: (r) => `941${String(r.int(2, 34)).padStart(2, '0')}` },
      { city: 'New York', state: 'NY', zip: (r) => `100${String(r.int(1, 40)).padStart(2, '0')}` },
      { city: 'Austin', state: 'TX', zip: (r) => `787${String(r.int(1, 59)).padStart(2, '0')}` },
      { city: 'Seattle', state: 'WA', zip: (r) => `981${String(r.int(1, 99)).padStart(2, '0')}` },
      { city: 'Boston', state: 'MA', zip: (r) => `021${String(r.int(8, 99)).padStart(2, '0')}` },
    ],
    vatNumber: () => null,
  },
  {
    code: 'SE',
    name: 'Sweden',
    currency: 'SEK',
    eu: true,
    weight: 3,
    phonePrefix: '+46',
    legalSuffixes: ['AB'],
    streets: ['Drottninggatan', 'Götgatan', 'Kungsgatan'],
    cities: [{ city: 'Stockholm', state: null, zip: (r) => `1${r.int(11, 18)} ${r.int(10, 99)}` }],
    vatNumber: (r) => `SE${digits(10)(r)}01`,
  },
  {
    code: 'DK',
    name: 'Denmark',
    currency: 'DKK',
    eu: true,
    weight: 2,
    phonePrefix: '+45',
    legalSuffixes: ['ApS', 'A/S'],
    streets: ['Strøget', 'Nørrebrogade', 'Vesterbrogade'],
    cities: [{ city: 'København', state: null, zip: (r) => `1${r.int(50, 99)}0` }],
    vatNumber: (r) => `DK${digits(8)(r)}`,
  },
  {
    code: 'ES',
    name: 'Spain',
    currency: 'EUR',
    eu: true,
    weight: 3,
    phonePrefix: '+34',
    legalSuffixes: ['S.L.', 'S.A.'],
    streets: ['Calle de Alcalá', 'Passeig de Gràcia', 'Gran Vía'],
    cities: [
      { city: 'Madrid', state: 'Madrid', zip: (r) => `280${String(r.int(1, 55)).padStart(2, '0')}` },
      { city: 'Barcelona', state: 'Cataluña', zip: (r) => `080${String(r.int(1, 42)).padStart(2, '0')}` },
    ],
    vatNumber: (r) => `ES${letter(r)}${digits(7)(r)}${letter(r)}`,
  },
];

export const COMPANY_WORDS: readonly string[] = [
  'Nordlicht',
  'Bluefin',
  'Kiefer',
  'Lumen',
  'Alpenglow',
  'Harbor',
  'Copperleaf',
  'Atlas',
  'Falkenberg',
  'Brightwater',
  'Quill',
  'Ember',
  'Tidewater',
  'Silberfisch',
  'Granite',
  'Meadow',
  'Polaris',
  'Saffron',
  'Kestrel',
  'Wildrose',
  'Orbit',
  'Juniper',
  'Ironbark',
  'Lindgren',
  'Mosaic',
  'Northstar',
  'Pinecone',
  'Rheinblick',
  'Sundial',
  'Vantage',
  'Driftwood',
  'Elbwerk',
];

export const COMPANY_NOUNS: readonly string[] = [
  'Studios',
  'Analytics',
  'Logistics',
  'Bakery',
  'Robotics',
  'Health',
  'Architects',
  'Foods',
  'Media',
  'Mobility',
  'Energy',
  'Labs',
  'Consulting',
  'Outfitters',
  'Software',
  'Travel',
  'Coffee Roasters',
  'Biotech',
  'Insurance',
  'Furniture',
];

export const FIRST_NAMES: readonly string[] = [
  'Anna',
  'Lukas',
  'Sophie',
  'Jonas',
  'Marie',
  'Felix',
  'Emma',
  'Leon',
  'Clara',
  'Noah',
  'Lena',
  'Elias',
  'Mia',
  'Paul',
  'Hannah',
  'Ben',
  'Olivia',
  'Liam',
  'Camille',
  'Lucas',
  'Sara',
  'Mateo',
  'Freya',
  'Oscar',
  'Ines',
  'Daniel',
  'Priya',
  'Kenji',
  'Amara',
  'Tomasz',
];

export const LAST_NAMES: readonly string[] = [
  'Schmidt',
  'Müller',
  'Weber',
  'Fischer',
  'Becker',
  'Hoffmann',
  'Wagner',
  'Koch',
  'Richter',
  'Klein',
  'Jansen',
  'de Vries',
  'Dubois',
  'Moreau',
  'Smith',
  'Taylor',
  'Brown',
  'Johnson',
  'García',
  'Lindqvist',
  'Nielsen',
  'Novak',
  'Rossi',
  'Okafor',
  'Tanaka',
  'Patel',
  'Kowalski',
  'Berger',
];

export const TAG_NAMES: readonly string[] = [
  'retainer',
  'project',
  'priority',
  'enterprise',
  'startup',
  'non-profit',
  'partner',
  'recurring',
  'travel',
  'equipment',
  'reimbursable',
  'tax-deductible',
  'q4-campaign',
  'internal',
];

/** What the agency sells: invoice line items. Prices in EUR minor units (converted for USD customers). */
export interface Service {
  name: string;
  unit: 'hours' | 'days' | 'month' | 'piece';
  priceMinor: number;
  /** Typical quantity range. */
  quantity: [number, number];
  category: 'service-revenue' | 'consulting-revenue' | 'subscription-revenue' | 'product-sales';
}

export const SERVICES: readonly Service[] = [
  { name: 'UX research & interviews', unit: 'days', priceMinor: 95_000, quantity: [2, 8], category: 'service-revenue' },
  { name: 'UI design', unit: 'hours', priceMinor: 11_500, quantity: [16, 120], category: 'service-revenue' },
  { name: 'Frontend development', unit: 'hours', priceMinor: 12_000, quantity: [20, 160], category: 'service-revenue' },
  { name: 'Backend development', unit: 'hours', priceMinor: 12_500, quantity: [20, 140], category: 'service-revenue' },
  { name: 'Brand strategy workshop', unit: 'days', priceMinor: 140_000, quantity: [1, 3], category: 'consulting-revenue' },
  { name: 'Technical consulting', unit: 'hours', priceMinor: 15_000, quantity: [4, 40], category: 'consulting-revenue' },
  { name: 'Logo & visual identity', unit: 'piece', priceMinor: 480_000, quantity: [1, 1], category: 'service-revenue' },
  { name: 'Copywriting', unit: 'hours', priceMinor: 9_000, quantity: [8, 40], category: 'service-revenue' },
  { name: 'Design system licence', unit: 'piece', priceMinor: 120_000, quantity: [1, 2], category: 'product-sales' },
];

export const RETAINERS: readonly { name: string; priceMinor: number }[] = [
  { name: 'Monthly design retainer', priceMinor: 450_000 },
  { name: 'Website care & hosting plan', priceMinor: 95_000 },
  { name: 'Growth marketing retainer', priceMinor: 320_000 },
  { name: 'Product team extension (part-time)', priceMinor: 780_000 },
];

/** Card spend: merchants by category with a typical amount (EUR minor, median) and spread. */
export interface Merchant {
  name: string;
  category: string;
  median: number;
  sigma: number;
  /** Relative frequency among card transactions. */
  weight: number;
  method?: 'card_purchase' | 'card_atm' | 'payment';
  tags?: readonly string[];
}

export const MERCHANTS: readonly Merchant[] = [
  { name: 'Café Kreuzberg', category: 'meals', median: 1_450, sigma: 0.5, weight: 14 },
  { name: 'Lunch Lab', category: 'meals', median: 2_800, sigma: 0.5, weight: 10 },
  { name: 'Trattoria Sole', category: 'meals', median: 9_500, sigma: 0.6, weight: 4, tags: ['reimbursable'] },
  { name: 'DB Fernverkehr', category: 'travel', median: 8_900, sigma: 0.6, weight: 6, tags: ['travel'] },
  { name: 'Skyline Airways', category: 'travel', median: 24_000, sigma: 0.6, weight: 3, tags: ['travel'] },
  { name: 'CityHotel Mitte', category: 'accommodation', median: 13_900, sigma: 0.5, weight: 3, tags: ['travel', 'reimbursable'] },
  { name: 'Taxi Berlin', category: 'transportation', median: 2_100, sigma: 0.5, weight: 7, tags: ['travel'] },
  { name: 'BVG Tickets', category: 'transportation', median: 950, sigma: 0.3, weight: 5 },
  { name: 'Papeterie Schreibwaren', category: 'office-supplies', median: 3_400, sigma: 0.7, weight: 6 },
  { name: 'Officeshop Online', category: 'office-supplies', median: 6_900, sigma: 0.8, weight: 4 },
  { name: 'Elektro Markt', category: 'hardware', median: 18_900, sigma: 0.9, weight: 2, tags: ['equipment'] },
  { name: 'App Store', category: 'software', median: 1_199, sigma: 0.6, weight: 5 },
  { name: 'Stock Photo Library', category: 'production-costs', median: 4_900, sigma: 0.5, weight: 3 },
  { name: 'Social Ads Network', category: 'advertising', median: 15_000, sigma: 0.7, weight: 3, tags: ['q4-campaign'] },
  { name: 'Search Ads', category: 'advertising', median: 21_000, sigma: 0.6, weight: 2 },
  { name: 'Bookshop am Platz', category: 'training', median: 3_900, sigma: 0.5, weight: 2, tags: ['tax-deductible'] },
  { name: 'Online Course Hub', category: 'training', median: 12_900, sigma: 0.5, weight: 1, tags: ['tax-deductible'] },
  { name: 'Paketshop', category: 'postage-shipping', median: 1_690, sigma: 0.5, weight: 3 },
  { name: 'Supermarkt', category: 'office-supplies', median: 4_200, sigma: 0.5, weight: 6 },
  { name: 'Cinema & Bowling', category: 'entertainment', median: 18_000, sigma: 0.6, weight: 1, tags: ['internal'] },
  { name: 'ATM withdrawal', category: 'other', median: 10_000, sigma: 0.4, weight: 1, method: 'card_atm' },
];

/** The agency's subscriptions: price per month (per seat when `perSeat`), in the currency of the account paying it. */
export interface Subscription {
  vendor: string;
  category: 'software' | 'hosting' | 'internet-and-telephone' | 'website';
  currency: 'EUR' | 'USD';
  priceMinor: number;
  perSeat?: boolean;
  frequency: 'monthly' | 'annually';
  /** Day of month it is charged (annual ones: in `month`). */
  day: number;
  month?: number;
  /** Usage-based: amount varies month to month. */
  variable?: boolean;
}

export const SUBSCRIPTIONS: readonly Subscription[] = [
  {
    vendor: 'Workspace Suite',
    category: 'software',
    currency: 'EUR',
    priceMinor: 1_380,
    perSeat: true,
    frequency: 'monthly',
    day: 1,
  },
  { vendor: 'TeamChat', category: 'software', currency: 'USD', priceMinor: 875, perSeat: true, frequency: 'monthly', day: 3 },
  {
    vendor: 'DesignCanvas',
    category: 'software',
    currency: 'USD',
    priceMinor: 1_500,
    perSeat: true,
    frequency: 'monthly',
    day: 5,
  },
  { vendor: 'CodeHost', category: 'software', currency: 'USD', priceMinor: 2_100, frequency: 'monthly', day: 7 },
  { vendor: 'NoteBase', category: 'software', currency: 'USD', priceMinor: 960, perSeat: true, frequency: 'monthly', day: 9 },
  { vendor: 'Creative Cloud Suite', category: 'software', currency: 'EUR', priceMinor: 7_140, frequency: 'monthly', day: 12 },
  {
    vendor: 'PasswordVault',
    category: 'software',
    currency: 'USD',
    priceMinor: 800,
    perSeat: true,
    frequency: 'monthly',
    day: 14,
  },
  {
    vendor: 'CloudCompute',
    category: 'hosting',
    currency: 'USD',
    priceMinor: 42_000,
    frequency: 'monthly',
    day: 2,
    variable: true,
  },
  { vendor: 'Hetz Hosting', category: 'hosting', currency: 'EUR', priceMinor: 8_930, frequency: 'monthly', day: 4 },
  { vendor: 'Buchhaltung Online', category: 'software', currency: 'EUR', priceMinor: 2_490, frequency: 'monthly', day: 1 },
  {
    vendor: 'Glasfaser Business',
    category: 'internet-and-telephone',
    currency: 'EUR',
    priceMinor: 8_990,
    frequency: 'monthly',
    day: 15,
  },
  {
    vendor: 'Mobilfunk Team',
    category: 'internet-and-telephone',
    currency: 'EUR',
    priceMinor: 2_500,
    perSeat: true,
    frequency: 'monthly',
    day: 20,
  },
  { vendor: 'IDE Licences', category: 'software', currency: 'EUR', priceMinor: 69_900, frequency: 'annually', day: 10, month: 3 },
  {
    vendor: 'Domain Registrar',
    category: 'website',
    currency: 'EUR',
    priceMinor: 18_400,
    frequency: 'annually',
    day: 18,
    month: 9,
  },
];

export const TRACKER_TASKS: readonly string[] = [
  'Kick-off and planning',
  'Stakeholder interviews',
  'Wireframes',
  'Visual design',
  'Design review',
  'Component library',
  'Frontend implementation',
  'API integration',
  'Bug fixing',
  'QA and testing',
  'Deployment',
  'Client call',
  'Content migration',
  'Performance tuning',
  'Accessibility audit',
];

export const PROJECT_KINDS: readonly string[] = [
  'Website relaunch',
  'Mobile app',
  'Brand refresh',
  'Design system',
  'E-commerce shop',
  'Customer portal',
  'Marketing campaign',
  'Intranet',
  'Booking platform',
  'Analytics dashboard',
];

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
