import { describe, expect, it } from 'vitest';
import { parseBankFile } from '../../../../src-main/import/parse-file';
import { FIELD_86_CHARS, LINE_CHARS, withoutEnvelope } from '../../../../src-main/import/parsers/mt940';

/** MT940's envelope and line caps: read in one pass, and a line past the format's caps refused with its number. */
const mt940 = (text: string) => parseBankFile(Buffer.from(text), { currency: 'EUR', filename: 'a.sta' }).file;

const STATEMENT = [
  ':20:STARTUMS',
  ':25:10020030/1234567890',
  ':28C:00001/001',
  ':60F:C260301EUR1000,00',
  ':61:2603010301DR12,50NMSCNONREF',
  ':86:Kaffee',
  ':62F:C260301EUR987,50',
];

describe('MT940 envelope', () => {
  it.each([
    ['{1:F01DEUTDEFFAXXX0000000000}{2:O9401200260301DEUTDEFFAXXX00000000002603011200N}{4:', ''],
    ['{1:F01X}{2:O940}{3:{108:REF-1}{119:STP}}{4:', ''],
    ['{1:F01X}{4::20:STARTUMS', ':20:STARTUMS'],
    ['{1:x}{2:{{{{', '{2:{{{{'],
    ['{9:x}', '{9:x}'],
    [':20:X', ':20:X'],
  ])('%s → %s', (line, rest) => {
    expect(withoutEnvelope(line)).toBe(rest);
  });

  it('reads the line of 32,000 braces that took seconds (the envelope regex was quadratic) in one pass', () => {
    const braces = `{1:x}{2:${'{'.repeat(32_000)}`;
    const started = performance.now();
    expect(withoutEnvelope(braces)).toBe(`{2:${'{'.repeat(32_000)}`);
    const file = mt940(`${braces}\n${STATEMENT.join('\n')}\n`);
    expect(performance.now() - started).toBeLessThan(500);
    expect(file.errors).toEqual([
      {
        line: 1,
        row: null,
        field: null,
        message: expect.stringMatching(/^the line has 32,008 characters; an MT940 line has at most 65/),
      },
    ]);
  });

  it('a 1 MB line is refused as fast', () => {
    const started = performance.now();
    const file = mt940(`${STATEMENT.join('\n')}\n:86:${'{'.repeat(1_000_000)}\n`);
    expect(performance.now() - started).toBeLessThan(500);
    expect(file.errors[0]).toMatchObject({ line: 8, message: expect.stringMatching(/1,000,004 characters/) });
  });
});

describe('MT940 line caps', () => {
  it('takes a :86: of up to 6 × 65 characters on one line or on six, and refuses one longer, naming its line', () => {
    const oneLine = STATEMENT.map((l) => (l.startsWith(':86:') ? `:86:${'x'.repeat(FIELD_86_CHARS)}` : l));
    expect(mt940(oneLine.join('\n')).errors).toEqual([]);
    const sixLines = STATEMENT.map((l) =>
      l.startsWith(':86:') ? `:86:${Array.from({ length: 6 }, () => 'y'.repeat(LINE_CHARS)).join('\n')}` : l,
    );
    const six = mt940(sixLines.join('\n'));
    expect(six.errors).toEqual([]);
    expect(six.rows[0]!.description).toBe('y'.repeat(6 * LINE_CHARS));
    const seven = STATEMENT.map((l) =>
      l.startsWith(':86:') ? `:86:${Array.from({ length: 7 }, () => 'z'.repeat(LINE_CHARS)).join('\n')}` : l,
    );
    expect(mt940(seven.join('\n')).errors).toEqual([
      { line: 6, row: null, field: '86', message: 'the :86: field has 455 characters; MT940 allows at most 6 × 65 = 390' },
    ]);
  });

  it('refuses a line of another field longer than 65 characters after its tag (a :61: line, two lines’ worth)', () => {
    const long25 = STATEMENT.map((l) => (l.startsWith(':25:') ? `:25:${'1'.repeat(66)}` : l));
    expect(mt940(long25.join('\n')).errors).toEqual([
      { line: 2, row: null, field: '25', message: 'a line of the :25: field has 66 characters; MT940 allows at most 65' },
    ]);
    // A long customer reference (GLS/Atruvia write 34 characters before "//") is read.
    const gls = STATEMENT.map((l) =>
      l.startsWith(':61:') ? ':61:2603010301DR12,50NTRFBIPI-dvT1FzfMqvzF5HaU4oetlH7SGRkonU//2022070616391534000' : l,
    );
    const read = mt940(gls.join('\n'));
    expect(read.errors).toEqual([]);
    expect(read.rows[0]!.details).toMatchObject({ bankReference: '2022070616391534000' });
    const long61 = STATEMENT.map((l) => (l.startsWith(':61:') ? `:61:2603010301DR12,50NMSC${'R'.repeat(120)}` : l));
    expect(mt940(long61.join('\n')).errors[0]).toMatchObject({
      line: 5,
      field: '61',
      message: expect.stringMatching(/at most 130/),
    });
  });
});
