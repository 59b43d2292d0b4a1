import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, OfxMarkupError, readOfxMarkup } from '../../../../src-main/import/parsers/ofx-markup';

/** The OFX markup reader: SGML 1.x and XML 2.x to the same tree, in one pass. */
describe('OFX markup', () => {
  it('closes SGML leaves at the next tag and keeps aggregates with their closing tags', () => {
    const tree = readOfxMarkup(
      'OFXHEADER:100\nDATA:OFXSGML\n\n<OFX>\n<BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR\n<BANKTRANLIST>\n' +
        '<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260301<TRNAMT>-12.50<NAME>Bäckerei</STMTTRN>\n' +
        '<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20260302<TRNAMT>100.00</STMTTRN>\n' +
        '</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>',
    );
    expect(tree).toEqual({
      BANKMSGSRSV1: {
        STMTTRNRS: {
          STMTRS: {
            CURDEF: 'EUR',
            BANKTRANLIST: {
              STMTTRN: [
                { TRNTYPE: 'DEBIT', DTPOSTED: '20260301', TRNAMT: '-12.50', NAME: 'Bäckerei' },
                { TRNTYPE: 'CREDIT', DTPOSTED: '20260302', TRNAMT: '100.00' },
              ],
            },
          },
        },
      },
    });
  });

  it('reads OFX 2 XML the same way, with its declaration, processing instruction, comments and closed leaves', () => {
    const tree = readOfxMarkup(
      '<?xml version="1.0" encoding="UTF-8"?>\n<?OFX OFXHEADER="200" VERSION="220"?>\n<OFX><!-- a comment -->' +
        '<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS></SONRS></SIGNONMSGSRSV1></OFX>',
    );
    expect(tree).toEqual({ SIGNONMSGSRSV1: { SONRS: { STATUS: { CODE: '0', SEVERITY: 'INFO' } } } });
  });

  it('decodes entities, and takes CDATA as written', () => {
    const tree = readOfxMarkup('<OFX><NAME>A &amp; B &lt;x&gt; &#228;&#xE9;<MEMO><![CDATA[M & S <Ltd> &amp;]]></OFX>');
    expect(tree).toEqual({ NAME: 'A & B <x> äé', MEMO: 'M & S <Ltd> &amp;' });
  });

  it('ignores a closing tag of a leaf the SGML rule already closed', () => {
    expect(readOfxMarkup('<OFX><A><B>1</B><C>2</C></A></OFX>')).toEqual({ A: { B: '1', C: '2' } });
    expect(readOfxMarkup('<OFX><A><B>1<C>2</B></C></A></OFX>')).toEqual({ A: { B: '1', C: '2' } });
  });

  it.each([
    ['no OFX element', 'OFXHEADER:100\n<FOO>1', /line 1: no <OFX> element/],
    ['a tag that does not end', '<OFX>\n<STMTTRN\n<TRNAMT>1', /line 2: a tag that does not end/],
    ['a tag that is not one', '<OFX>\n\n<1AB>x', /line 3: "<1AB>" is not a tag/],
    ['an unterminated comment', '<OFX><!-- x', /a comment that does not end/],
    ['an unterminated CDATA section', '<OFX><A><![CDATA[x', /a CDATA section that does not end/],
    ['an empty OFX element', '<OFX></OFX>', /the <OFX> element is empty/],
    ['nesting past the limit', `<OFX>${'<A>'.repeat(MAX_DEPTH + 1)}x`, /nested deeper than 64/],
  ])('refuses %s with its line', (_what, text, message) => {
    expect(() => readOfxMarkup(text)).toThrow(OfxMarkupError);
    expect(() => readOfxMarkup(text)).toThrow(message);
  });

  it('reads the tag that made ofx-js backtrack for seconds, and a long run of tags, in one pass', () => {
    // ofx-js: 24 × "A" took 1.2–1.8 s and doubled with every one or two more; 40 would be days.
    const started = performance.now();
    expect(readOfxMarkup(`<OFX><SIGNONMSGSRSV1><${'A'.repeat(40)}>x`)).toEqual({ SIGNONMSGSRSV1: { ['A'.repeat(40)]: 'x' } });
    const many = `<OFX><LIST>${'<STMTTRN><TRNAMT>1.00</STMTTRN>\n'.repeat(100_000)}</LIST></OFX>`;
    const list = (readOfxMarkup(many).LIST as { STMTTRN: unknown[] }).STMTTRN;
    expect(list).toHaveLength(100_000);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
