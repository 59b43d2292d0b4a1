import { describe, expect, it } from 'vitest';
import { convertMinor } from '../../../src-shared/domain/fx';
import { divideRates, parseRateFile, RateFileError } from '../../../src-shared/domain/rate-files';

function problems(text: string, options?: { base?: string }): { line: number; message: string }[] {
  try {
    parseRateFile(text, options);
  } catch (err) {
    if (err instanceof RateFileError) return [...err.problems];
    throw err;
  }
  throw new Error('expected the file to be refused');
}

describe('rate files: the long layout (per USD)', () => {
  it('reads date,currency,rate lines and leaves USD out (it is 1)', () => {
    const file = parseRateFile('date,currency,rate\n2026-01-02,EUR,0.9134\n2026-01-02,jpy,157.25\n\n2026-01-02,USD,1.000\n');
    expect(file).toEqual({
      layout: 'long',
      base: 'USD',
      rows: [
        { day: '2026-01-02', currency: 'EUR', perUsd: '0.9134', line: 2 },
        { day: '2026-01-02', currency: 'JPY', perUsd: '157.25', line: 3 },
      ],
      skipped: [],
    });
    expect(parseRateFile('Day,Code,Per_USD\n2026-01-02,GBP,0.79\n').rows).toHaveLength(1);
  });

  it('names every bad line and refuses the file', () => {
    const text = [
      'date,currency,rate',
      '2026-01-02,EUR,0.91', // 2 ok
      '2026-02-30,EUR,0.91', // 3 no such day
      '2026-01-03,EURO,0.91', // 4 not ISO
      '2026-01-03,GBP,-0.79', // 5 negative
      '2026-01-03,CAD,1e-3', // 6 exponent
      '2026-01-03,CHF,0', // 7 zero
      '2026-01-02,EUR,0.92', // 8 duplicate of 2
      '2026-01-03,USD,1.1', // 9 USD not 1
      '2026-01-03,SEK', // 10 missing value
      '2026-01-03,NOK,10.1234567890123', // 11 13 decimals
      '2026-01-03,DKK,"6,84"', // 12 decimal comma
    ].join('\n');
    const found = problems(text);
    expect(found.map((p) => p.line)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(found.find((p) => p.line === 8)?.message).toContain('already given on line 2');
    expect(found.find((p) => p.line === 4)?.message).toContain('"EURO" is not an ISO 4217 code');
    const err = (() => {
      try {
        parseRateFile(text);
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err?.message).toMatch(/10 problems; nothing was imported:\n {2}line 3: /);
  });

  it('refuses an unknown header, an empty file and broken CSV', () => {
    expect(problems('when,what,how\n2026-01-01,EUR,1\n')[0]?.message).toContain('unknown layout');
    expect(problems('')[0]?.message).toBe('the file is empty');
    expect(problems('date,currency,rate\n2026-01-01,"EUR,0.9\n')).toHaveLength(1);
    expect(problems('date,currency,rate\n2026-01-01,EUR,0.9\n', { base: 'EUR' })[0]?.message).toContain('wide files only');
  });
});

describe('rate files: the wide layout (per EUR, as the ECB publishes)', () => {
  const ECB = ['Date,USD,JPY,GBP,CHF,CYP,', '2026-01-05,1.0856,157.30,0.8601,0.9412,N/A,', '2026-01-02,1.25,,0.8,N/A,N/A,'].join(
    '\n',
  );

  it('rebases every rate to per USD exactly, with the base currency itself', () => {
    const file = parseRateFile(ECB);
    expect(file.layout).toBe('wide');
    expect(file.base).toBe('EUR');
    // The ECB keeps a column for the Cyprus pound, withdrawn in 2008.
    expect(file.skipped).toEqual(['CYP']);
    const day = (d: string) => Object.fromEntries(file.rows.filter((r) => r.day === d).map((r) => [r.currency, r.perUsd]));
    // 1 / 1.25 and 0.8 / 1.25 terminate: exact.
    expect(day('2026-01-02')).toEqual({ EUR: '0.8', GBP: '0.64' });
    // 157.30 / 1.0856 = 144.896831245394252… → 12 decimals, half away from zero.
    expect(day('2026-01-05')).toEqual({
      EUR: '0.921149594694',
      JPY: '144.896831245394',
      GBP: '0.792280766396',
      CHF: '0.866985998526',
    });
    expect(file.rows.every((r) => r.line === (r.day === '2026-01-05' ? 2 : 3))).toBe(true);
  });

  it('keeps conversions between the quoted currencies at the published rate', () => {
    const rows = parseRateFile(ECB).rows.filter((r) => r.day === '2026-01-05');
    const per = (c: string) => rows.find((r) => r.currency === c)!.perUsd;
    // 1,000,000.00 EUR in JPY at the ECB's 157.30 is 157,300,000 JPY; through the rebased rates the same.
    expect(convertMinor(100_000_000, 'EUR', 'JPY', per('EUR'), per('JPY'))).toBe(157_300_000);
    expect(convertMinor(100_000_000, 'EUR', 'GBP', per('EUR'), per('GBP'))).toBe(86_010_000);
    expect(convertMinor(100_000_000, 'EUR', 'USD', per('EUR'), '1')).toBe(108_560_000);
  });

  it('takes another base and names the lines it cannot use', () => {
    expect(parseRateFile('Date,EUR,GBP\n2026-01-02,0.5,0.25\n', { base: 'USD' }).rows).toEqual([
      { day: '2026-01-02', currency: 'EUR', perUsd: '0.5', line: 2 },
      { day: '2026-01-02', currency: 'GBP', perUsd: '0.25', line: 2 },
    ]);
    const found = problems(
      ['Date,USD,JPY', '2026-01-05,1.08,157', '2026-01-06,N/A,158', '2026-01-05,1.09,150', 'soon,1,1', '2026-01-07,1.1,abc'].join(
        '\n',
      ),
    );
    expect(found).toEqual([
      { line: 3, message: 'no USD rate on 2026-01-06: the other rates of the day cannot be rebased to USD' },
      { line: 4, message: '2026-01-05 is already given on line 2' },
      { line: 5, message: 'date "soon" is not a calendar date YYYY-MM-DD' },
      { line: 6, message: 'JPY: rate "abc" is not a positive decimal number with at most 12 decimals' },
    ]);
    expect(problems('Date,JPY,GBP\n2026-01-05,157,0.8\n')[0]?.message).toContain('a USD column is needed');
    expect(problems('Date,USD,EUR\n2026-01-05,1.08,1\n')[0]?.message).toContain('the base currency itself');
    expect(problems('Date,USD,U$D\n2026-01-05,1.08,1\n')[0]?.message).toContain('"U$D" is not a currency code');
  });

  it('divides decimals exactly and rounds once', () => {
    expect(divideRates('1', '3')).toBe('0.333333333333');
    expect(divideRates('2', '3')).toBe('0.666666666667');
    expect(divideRates('157.3', '1')).toBe('157.3');
    expect(() => divideRates('0.000000000001', '4')).toThrow(RangeError);
  });
});
