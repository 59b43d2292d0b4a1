/**
 * Dates as bank files write them. A CSV column's format is decided from the WHOLE column (docs/decisions/0061):
 * every candidate format that parses every non-empty value survives; when day-first and month-first both survive
 * (no value has a day above 12), the one under which the rows are in date order wins (a statement is sorted), and
 * the choice is marked ambiguous so the preview asks the person to confirm it.
 */
export const DATE_FORMATS = [
  'YYYY-MM-DD',
  'YYYY/MM/DD',
  'YYYYMMDD',
  'DD.MM.YYYY',
  'DD/MM/YYYY',
  'DD-MM-YYYY',
  'MM/DD/YYYY',
  'MM-DD-YYYY',
  'DD.MM.YY',
  'DD/MM/YY',
  'MM/DD/YY',
  'D MMM YYYY',
] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
  // German, French and Spanish abbreviations banks print.
  mär: 3,
  mrz: 3,
  mai: 5,
  okt: 10,
  dez: 12,
  janv: 1,
  févr: 2,
  fevr: 2,
  mars: 3,
  avr: 4,
  juin: 6,
  juil: 7,
  août: 8,
  sept: 9,
  déc: 12,
  ene: 1,
  abr: 4,
  ago: 8,
  dic: 12,
};

function iso(y: number, m: number, d: number): string | null {
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1900 || y > 2200) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

const year2 = (yy: number) => (yy < 70 ? 2000 + yy : 1900 + yy);

/** YYYY-MM-DD of `text` in `format`, or null. A trailing time ("2026-03-04 10:22", "…T10:22:00Z") is ignored. */
export function parseDate(text: string, format: DateFormat): string | null {
  // No date with its time is longer: the patterns below never see more.
  if (text.length > 64) return null;
  const s = text
    .trim()
    .replace(/[T\s]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2}|[AaPp][Mm])?$/, '')
    .trim();
  let m: RegExpExecArray | null;
  switch (format) {
    case 'YYYY-MM-DD':
      m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
      return m ? iso(+m[1]!, +m[2]!, +m[3]!) : null;
    case 'YYYY/MM/DD':
      m = /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/.exec(s);
      return m ? iso(+m[1]!, +m[2]!, +m[3]!) : null;
    case 'YYYYMMDD':
      m = /^(\d{4})(\d{2})(\d{2})$/.exec(s);
      return m ? iso(+m[1]!, +m[2]!, +m[3]!) : null;
    case 'DD.MM.YYYY':
      m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(s);
      return m ? iso(+m[3]!, +m[2]!, +m[1]!) : null;
    case 'DD/MM/YYYY':
      m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
      return m ? iso(+m[3]!, +m[2]!, +m[1]!) : null;
    case 'DD-MM-YYYY':
      m = /^(\d{1,2})-(\d{1,2})-(\d{4})$/.exec(s);
      return m ? iso(+m[3]!, +m[2]!, +m[1]!) : null;
    case 'MM/DD/YYYY':
      m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
      return m ? iso(+m[3]!, +m[1]!, +m[2]!) : null;
    case 'MM-DD-YYYY':
      m = /^(\d{1,2})-(\d{1,2})-(\d{4})$/.exec(s);
      return m ? iso(+m[3]!, +m[1]!, +m[2]!) : null;
    case 'DD.MM.YY':
      m = /^(\d{1,2})\.(\d{1,2})\.(\d{2})$/.exec(s);
      return m ? iso(year2(+m[3]!), +m[2]!, +m[1]!) : null;
    case 'DD/MM/YY':
      m = /^(\d{1,2})\/(\d{1,2})\/(\d{2})$/.exec(s);
      return m ? iso(year2(+m[3]!), +m[2]!, +m[1]!) : null;
    case 'MM/DD/YY':
      m = /^(\d{1,2})\/(\d{1,2})\/(\d{2})$/.exec(s);
      return m ? iso(year2(+m[3]!), +m[1]!, +m[2]!) : null;
    case 'D MMM YYYY': {
      m = /^(\d{1,2})[\s.-]+([A-Za-zÀ-ÿ]{3,5})\.?[\s.-]+(\d{2}|\d{4})$/.exec(s);
      if (!m) return null;
      const month = MONTHS[m[2]!.toLowerCase()];
      if (!month) return null;
      const y = m[3]!.length === 2 ? year2(+m[3]!) : +m[3]!;
      return iso(y, month, +m[1]!);
    }
  }
}

export interface DateInference {
  format: DateFormat;
  /** Another format also read every value (day-first vs month-first): the person should confirm. */
  ambiguous: boolean;
  alternatives: DateFormat[];
}

function inversions(days: readonly string[]): number {
  let asc = 0;
  let desc = 0;
  for (let i = 1; i < days.length; i++) {
    if (days[i]! < days[i - 1]!) asc++;
    if (days[i]! > days[i - 1]!) desc++;
  }
  // Statements run oldest-first or newest-first: either order is "in order".
  return Math.min(asc, desc);
}

/**
 * The format that reads the most non-empty values of the column — all of them, or at least `tolerance` of them
 * (a file with a few broken dates still has a date column: its broken rows are reported by line); null when none.
 */
export function inferDateFormat(values: readonly string[], tolerance = 1): DateInference | null {
  // A statement repeats its days: each distinct value is read once, weighted by how often it occurs.
  const weight = new Map<string, number>();
  let total = 0;
  for (const raw of values) {
    const v = raw.trim();
    if (v === '') continue;
    weight.set(v, (weight.get(v) ?? 0) + 1);
    total++;
  }
  if (total === 0) return null;
  const distinct = [...weight.keys()];
  const counts = DATE_FORMATS.map((f) => distinct.reduce((n, v) => n + (parseDate(v, f) !== null ? weight.get(v)! : 0), 0));
  const most = Math.max(...counts);
  if (most === 0 || most < Math.ceil(total * tolerance)) return null;
  const fits = DATE_FORMATS.filter((_, i) => counts[i] === most);
  if (fits.length === 1) return { format: fits[0]!, ambiguous: false, alternatives: [] };
  const present = values.map((v) => v.trim()).filter((v) => v !== '' && fits.some((f) => parseDate(v, f) !== null));
  const scored = fits
    .map((f, i) => ({ f, i, inv: inversions(present.map((v) => parseDate(v, f)!)) }))
    .sort((a, b) => a.inv - b.inv || a.i - b.i);
  const best = scored[0]!;
  const chosen = present.map((v) => parseDate(v, best.f));
  // Only a format that reads some value as another day is a real alternative (01/01 is the same either way).
  const alternatives = scored
    .slice(1)
    .filter((s) => present.some((v, i) => parseDate(v, s.f) !== chosen[i]))
    .map((s) => s.f);
  return { format: best.f, ambiguous: alternatives.length > 0, alternatives };
}
