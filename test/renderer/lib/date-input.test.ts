import { describe, expect, it } from 'vitest';
import { type DateFormat, datePattern, fullYear, parseDayInput } from '../../../src-renderer/lib/date-input';

const IN_2026 = 2026;
const read = (text: string, format: DateFormat) => {
  const r = parseDayInput(text, format, IN_2026);
  return r.kind === 'day' ? r.iso : r.kind;
};

describe('reading a typed day in the user’s format', () => {
  it.each<[DateFormat, string, string]>([
    // dd.MM.yyyy (German): the forms an accountant types
    ['dd.MM.yyyy', '15.03.2026', '2026-03-15'],
    ['dd.MM.yyyy', '15.3.2026', '2026-03-15'],
    ['dd.MM.yyyy', '15.03.26', '2026-03-15'],
    ['dd.MM.yyyy', '15032026', '2026-03-15'],
    ['dd.MM.yyyy', '150326', '2026-03-15'],
    ['dd.MM.yyyy', '15.3.', '2026-03-15'],
    ['dd.MM.yyyy', '15.3', '2026-03-15'],
    ['dd.MM.yyyy', ' 1.1.2027 ', '2027-01-01'],
    ['dd.MM.yyyy', '2026-03-15', '2026-03-15'],
    ['dd.MM.yyyy', '29.02.2028', '2028-02-29'],
    ['dd.MM.yyyy', '29.2.24', '2024-02-29'],
    ['dd.MM.yyyy', '29.02.2000', '2000-02-29'],
    // dd/MM/yyyy (British), any separator
    ['dd/MM/yyyy', '15/3/2026', '2026-03-15'],
    ['dd/MM/yyyy', '15-03-26', '2026-03-15'],
    ['dd/MM/yyyy', '15 03 2026', '2026-03-15'],
    // MM/dd/yyyy (US)
    ['MM/dd/yyyy', '3/15/2026', '2026-03-15'],
    ['MM/dd/yyyy', '03/15/26', '2026-03-15'],
    ['MM/dd/yyyy', '03152026', '2026-03-15'],
    ['MM/dd/yyyy', '3/15', '2026-03-15'],
    ['MM/dd/yyyy', '2026-03-15', '2026-03-15'],
    // yyyy-MM-dd
    ['yyyy-MM-dd', '2026-3-5', '2026-03-05'],
    ['yyyy-MM-dd', '20260315', '2026-03-15'],
    ['yyyy-MM-dd', '26-03-15', '2026-03-15'],
    ['yyyy-MM-dd', '2026/03/15', '2026-03-15'],
  ])('%s: "%s" is %s', (format, text, iso) => {
    expect(read(text, format)).toBe(iso);
  });

  it.each<[DateFormat, string]>([
    ['dd.MM.yyyy', '31.04.2026'],
    ['dd.MM.yyyy', '31.04.'],
    ['dd.MM.yyyy', '29.02.2026'],
    ['dd.MM.yyyy', '29.02.1900'],
    ['dd.MM.yyyy', '0.3.2026'],
    ['dd.MM.yyyy', '15.13.2026'],
    ['dd.MM.yyyy', '15.3.202'],
    ['dd.MM.yyyy', '15.3.2'],
    ['dd.MM.yyyy', '15'],
    ['dd.MM.yyyy', '1503202'],
    ['dd.MM.yyyy', '15.03.2026.1'],
    ['dd.MM.yyyy', '15.März 2026'],
    ['dd.MM.yyyy', '2026-02-30'],
    ['dd.MM.yyyy', '123.3.2026'],
    ['MM/dd/yyyy', '15/03/2026'],
    ['yyyy-MM-dd', '15.03.2026'],
    ['yyyy-MM-dd', '0999-01-01'],
  ])('%s: "%s" is not a day', (format, text) => {
    expect(read(text, format)).toBe('invalid');
  });

  it('tells an empty field from a wrong one', () => {
    expect(read('', 'dd.MM.yyyy')).toBe('empty');
    expect(read('   ', 'MM/dd/yyyy')).toBe('empty');
  });

  it('puts two-digit years at most 20 years ahead', () => {
    expect(fullYear(26, 2026)).toBe(2026);
    expect(fullYear(46, 2026)).toBe(2046);
    expect(fullYear(47, 2026)).toBe(1947);
    expect(fullYear(0, 2026)).toBe(2000);
    expect(fullYear(99, 2026)).toBe(1999);
    expect(fullYear(5, 2090)).toBe(2105);
  });

  it('writes the pattern in the reader’s letters', () => {
    const de = { day: 'TT', month: 'MM', year: 'JJJJ' };
    expect(datePattern('dd.MM.yyyy', de)).toBe('TT.MM.JJJJ');
    expect(datePattern('MM/dd/yyyy', { day: 'dd', month: 'mm', year: 'yyyy' })).toBe('mm/dd/yyyy');
  });
});
