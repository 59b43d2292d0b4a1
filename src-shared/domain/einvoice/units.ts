/**
 * A line's unit as people type it ("h", "Stunden", "jours", "pcs") → its UN/ECE Recommendation 20 code, which
 * EN 16931 requires for BT-130. A unit we do not know is "C62" (one, a unit without dimension), which every
 * receiver accepts; a code already given (HUR, DAY…) is kept. Pure.
 */

const NAMES: Readonly<Record<string, string>> = {
  // time
  h: 'HUR',
  hr: 'HUR',
  hrs: 'HUR',
  hour: 'HUR',
  hours: 'HUR',
  std: 'HUR',
  stunde: 'HUR',
  stunden: 'HUR',
  heure: 'HUR',
  heures: 'HUR',
  uur: 'HUR',
  min: 'MIN',
  minute: 'MIN',
  minutes: 'MIN',
  minuten: 'MIN',
  d: 'DAY',
  day: 'DAY',
  days: 'DAY',
  tag: 'DAY',
  tage: 'DAY',
  jour: 'DAY',
  jours: 'DAY',
  dag: 'DAY',
  dagen: 'DAY',
  week: 'WEE',
  weeks: 'WEE',
  woche: 'WEE',
  wochen: 'WEE',
  semaine: 'WEE',
  semaines: 'WEE',
  month: 'MON',
  months: 'MON',
  monat: 'MON',
  monate: 'MON',
  mois: 'MON',
  maand: 'MON',
  year: 'ANN',
  years: 'ANN',
  jahr: 'ANN',
  jahre: 'ANN',
  an: 'ANN',
  ans: 'ANN',
  // count
  pc: 'H87',
  pcs: 'H87',
  piece: 'H87',
  pieces: 'H87',
  stk: 'H87',
  stück: 'H87',
  pièce: 'H87',
  pièces: 'H87',
  unit: 'C62',
  units: 'C62',
  ea: 'EA',
  each: 'EA',
  pauschal: 'LS',
  'lump sum': 'LS',
  forfait: 'LS',
  flat: 'LS',
  // measures
  kg: 'KGM',
  g: 'GRM',
  t: 'TNE',
  km: 'KMT',
  m: 'MTR',
  m2: 'MTK',
  'm²': 'MTK',
  m3: 'MTQ',
  'm³': 'MTQ',
  l: 'LTR',
  liter: 'LTR',
  litre: 'LTR',
  kwh: 'KWH',
  gb: 'E34',
  tb: 'E35',
};

/** Codes people write as they are (a subset of rec. 20 that invoices use). */
const CODES = new Set([
  'HUR',
  'MIN',
  'DAY',
  'WEE',
  'MON',
  'ANN',
  'H87',
  'C62',
  'EA',
  'LS',
  'KGM',
  'GRM',
  'TNE',
  'KMT',
  'MTR',
  'MTK',
  'MTQ',
  'LTR',
  'KWH',
  'E34',
  'E35',
  'XPP',
  'SET',
  'PR',
]);

export const DEFAULT_UNIT_CODE = 'C62';

export function unitCode(unit: string | null | undefined): string {
  const text = unit?.trim();
  if (!text) return DEFAULT_UNIT_CODE;
  if (CODES.has(text.toUpperCase())) return text.toUpperCase();
  return NAMES[text.toLowerCase().replace(/\.$/, '')] ?? DEFAULT_UNIT_CODE;
}

/** Whether a received BT-130 looks like a rec. 20/21 code (2–3 upper-case letters or digits). */
export function isUnitCode(value: string): boolean {
  return /^[A-Z0-9]{2,3}$/.test(value);
}
