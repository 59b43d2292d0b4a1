import zlib from 'node:zlib';
import { createCanvas } from '@napi-rs/canvas';
import fc from 'fast-check';
import type { AcceptedType } from '../../../src-main/documents/detect';
import { parseInSandbox } from '../../../src-main/import/parse-sandboxed';
import { readMail } from '../../../src-main/inbox-ingest/mail';
import { ParserFailed, ParserStopped, parsers } from '../../../src-main/sandbox/pool';
import { ImportRefused } from '../../../src-shared/domain/import/types';
import { pdfWithEmbeddedFile } from '../../helpers/pdf-bomb';

/**
 * The table of parsers the abuse suite feeds (docs/decisions/0170): each reads bytes the way the product does —
 * through the parser sandbox, as an upload, the inbox or `finops import` would — and says whether it read them or
 * refused them with a message. Anything else (a crash, an error that is not a refusal, no answer) fails the suite.
 * A new parser adds a row: its reader, the inputs known to hurt parsers of its kind, and a generator of inputs
 * built from its own syntax (fragments repeated, nested and cut, so that anything super-linear shows).
 */
export type Outcome = { kind: 'read' } | { kind: 'refused'; message: string };

export interface ParserRow {
  name: string;
  read(bytes: Buffer): Promise<Outcome>;
  /** Inputs known to stall or blow up parsers of this kind (each answered within the suite's time limit). */
  pathological: [label: string, bytes: () => Buffer | Promise<Buffer>][];
  /** Generated inputs. */
  generated: fc.Arbitrary<Buffer>;
}

const refusedBy = (err: unknown): Outcome => {
  if (err instanceof ImportRefused || err instanceof ParserStopped || err instanceof ParserFailed) {
    return { kind: 'refused', message: err.message };
  }
  throw err;
};

/** A bank file as an import reads it: refused when the file has errors or the sandbox stopped its reader. */
const bankFile =
  (filename: string) =>
  async (bytes: Buffer): Promise<Outcome> => {
    try {
      const r = await parseInSandbox(bytes, { currency: 'EUR', filename });
      const problem = r.statements.flatMap((s) => s.errors)[0];
      return problem ? { kind: 'refused', message: problem.message } : { kind: 'read' };
    } catch (err) {
      return refusedBy(err);
    }
  };

/** A document as the document runner reads it, without OCR. */
const document =
  (mimetype: AcceptedType) =>
  async (bytes: Buffer): Promise<Outcome> => {
    try {
      await parsers().run('document', { bytes, mimetype });
      return { kind: 'read' };
    } catch (err) {
      return refusedBy(err);
    }
  };

/** Text from syntax fragments: a run of them, each possibly repeated many times (long runs find quadratic rules). */
const syntax = (fragments: readonly string[], maxRepeat = 3_000) =>
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...fragments), fc.string({ maxLength: 8 })),
        fc.oneof(fc.constant(1), fc.integer({ min: 1, max: maxRepeat })),
      ),
      { maxLength: 24 },
    )
    .map((parts) => Buffer.from(parts.map(([f, n]) => f.repeat(n)).join(''), 'latin1'));

const MB = 1024 * 1024;
const rep = (s: string, n: number) => s.repeat(n);

const OFX_PARTS = [
  'OFXHEADER:100\n',
  '<OFX>',
  '<SIGNONMSGSRSV1>',
  '<BANKMSGSRSV1>',
  '<STMTTRNRS>',
  '<STMTRS>',
  '<CURDEF>EUR',
  '<BANKTRANLIST>',
  '<STMTTRN>',
  '</STMTTRN>',
  '<TRNAMT>-1.00',
  '<DTPOSTED>20260301',
  '<NAME>',
  '<![CDATA[',
  ']]>',
  '<!--',
  '-->',
  '<',
  '>',
  '</',
  '&amp;',
  '&#x4',
  'A',
  '\n',
];
const MT940_PARTS = [
  '{1:',
  '{2:',
  '{3:{108:',
  '}',
  '{4:',
  '{',
  '\n',
  ':20:',
  ':25:',
  ':28C:',
  ':60F:C260301EUR',
  ':61:2603010301D',
  '12,50',
  'NMSC',
  '//',
  ':86:',
  '?20',
  '/EREF/',
  ':NS:',
  ':62F:',
  '-}',
  '\x01',
  '\x03',
  ' ',
];
const CSV_PARTS = [
  'Datum;Betrag;Text\n',
  '01.03.2026',
  ';',
  ',',
  '"',
  '""',
  '\n',
  '\r\n',
  ' ',
  '1',
  ',00',
  '-',
  '(',
  ')',
  'EUR',
  '€',
  '0',
  "'",
  '\t',
];
const CAMT_PARTS = [
  '<?xml version="1.0"?>',
  '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">',
  '<BkToCstmrStmt>',
  '<Stmt>',
  '<Ntry>',
  '</Ntry>',
  '<Amt Ccy="EUR">',
  '1.00',
  '</Amt>',
  '<Ustrd>',
  '</Ustrd>',
  '<!DOCTYPE x [<!ENTITY a "aaaa">]>',
  '&a;',
  '<',
  '>',
  ' ',
];
const QIF_PARTS = ['!Type:Bank\n', '!Account\n', 'D03/01/2026\n', 'T-1.00\n', 'P', 'M', 'L[', 'S', '$', '^\n', '\n', "'", ' '];
const XML_PARTS = [
  '<?xml version="1.0"?>',
  '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="x">',
  '<cbc:ID>',
  '</cbc:ID>',
  '<cac:InvoiceLine>',
  '</cac:InvoiceLine>',
  '<!DOCTYPE a [',
  '<!ENTITY e "ee">',
  ']>',
  '&e;',
  '<![CDATA[',
  ']]>',
  '<',
  '>',
  '"',
  ' a="b"',
];
const MAIL_PARTS = [
  'From: a@b.c\r\n',
  'Message-ID: <x@y>\r\n',
  'Content-Type: multipart/mixed; boundary="b"\r\n',
  '\r\n',
  '--b\r\n',
  '--b--\r\n',
  'Content-Transfer-Encoding: base64\r\n',
  'Content-Disposition: attachment; filename="a.pdf"\r\n',
  'JVBERi0x',
  '=?utf-8?B?',
  '?=',
  ' ',
  ':',
];

/** Billion laughs: nested entities, each ten of the one before. */
const laughs = (root: string) =>
  Buffer.from(
    `<?xml version="1.0"?><!DOCTYPE ${root} [<!ENTITY l0 "lollollollollol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${rep(`&l${i};`, 10)}">`).join('')}]><${root}>&l9;</${root}>`,
  );

const pngDeclaring = (width: number, height: number) => {
  const png = createCanvas(1, 1).toBuffer('image/png');
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  return png;
};

/** A JPEG whose frame header declares 65,500 × 65,500 pixels. */
const jpegDeclaring = () => {
  const jpeg = createCanvas(8, 8).toBuffer('image/jpeg');
  const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
  jpeg.writeUInt16BE(65_500, sof + 5);
  jpeg.writeUInt16BE(65_500, sof + 7);
  return jpeg;
};

const mail = (body: string) => Buffer.from(`From: a@b.c\r\nMessage-ID: <abuse@test>\r\n${body}`);

export const PARSERS: ParserRow[] = [
  {
    name: 'OFX',
    read: bankFile('a.ofx'),
    pathological: [
      ['a 24-character tag (ofx-js backtracked exponentially)', () => Buffer.from(`<OFX><SIGNONMSGSRSV1><${rep('A', 24)}>x`)],
      ['a 40-character tag', () => Buffer.from(`<OFX><SIGNONMSGSRSV1><${rep('A', 40)}>x`)],
      ['nesting 100,000 deep', () => Buffer.from(`<OFX>${rep('<A>', 100_000)}x`)],
      ['1 MB of "<"', () => Buffer.from(`<OFX>${rep('<', MB)}`)],
      ['100,000 unterminated CDATA openings', () => Buffer.from(`<OFX><NAME>${rep('<![CDATA[', 100_000)}`)],
      [
        '20,000 transactions',
        () =>
          Buffer.from(
            `<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR<BANKTRANLIST>${rep('<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260301<TRNAMT>-1.00<FITID>x</STMTTRN>', 20_000)}`,
          ),
      ],
    ],
    generated: syntax(OFX_PARTS),
  },
  {
    name: 'MT940',
    read: bankFile('a.sta'),
    pathological: [
      [
        'a line of 32,000 braces after the envelope (the envelope regex was quadratic)',
        () => Buffer.from(`{1:x}{2:${rep('{', 32_000)}\n:20:X\n:25:Y\n:60F:C260301EUR1,00\n`),
      ],
      ['a 1 MB line', () => Buffer.from(`:20:X\n:25:Y\n:60F:C260301EUR1,00\n:86:${rep('{', MB)}\n`)],
      [
        'a :86: of 100,000 lines',
        () =>
          Buffer.from(
            `:20:X\n:25:Y\n:60F:C260301EUR1,00\n:61:2603010301DR1,00NMSCNONREF\n:86:${rep('?20SVWZ+EREF+\n', 100_000)}`,
          ),
      ],
      ['100,000 envelopes', () => Buffer.from(rep('{1:F01X}{2:O940}{4:\n:20:X\n:25:Y\n-}\n', 100_000))],
      [
        'SEPA keywords on a :86: line of the longest length',
        () => Buffer.from(`:20:X\n:25:Y\n:60F:C260301EUR1,00\n:61:2603010301DR1,00NMSCNONREF\n:86:166?20${rep('EREF+', 77)}\n`),
      ],
    ],
    generated: syntax(MT940_PARTS),
  },
  {
    name: 'CSV',
    read: bankFile('a.csv'),
    pathological: [
      [
        'an amount cell of 2,000 spaces (the amount pattern backtracked: 15 s)',
        () => Buffer.from(`Datum;Betrag;Text\n01.03.2026;1${rep(' ', 2_000)}!;x\n01.03.2026;1,00;y\n`),
      ],
      ['an amount of 40,000 zeros', () => Buffer.from(`Datum;Betrag;Text\n01.03.2026;1,${rep('0', 40_000)}1;x\n`)],
      ['a header of 60,000 parentheses', () => Buffer.from(`Datum;Betrag;${rep('(', 60_000)}\n01.03.2026;1,00;x\n`)],
      ['a record of 10 MB', () => Buffer.from(`Datum;Betrag;Text\n01.03.2026;1,00;${rep('x', 10 * MB)}\n`)],
      ['1 MB of quotes', () => Buffer.from(`Datum;Betrag;Text\n${rep('"', MB)}`)],
      ['a date cell of 100,000 characters', () => Buffer.from(`Datum;Betrag;Text\n${rep('1:11', 25_000)};1,00;x\n`)],
    ],
    generated: syntax(CSV_PARTS),
  },
  {
    name: 'camt',
    read: bankFile('a.xml'),
    pathological: [
      ['billion laughs', () => laughs('Document')],
      [
        'an element text of 10 MB',
        () =>
          Buffer.from(
            `<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt><Ntry><AddtlNtryInf>${rep('x', 10 * MB)}</AddtlNtryInf></Ntry></Stmt></BkToCstmrStmt></Document>`,
          ),
      ],
      [
        'nesting 200,000 deep',
        () =>
          Buffer.from(
            `<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">${rep('<a>', 200_000)}`,
          ),
      ],
      [
        'a tag name of 1 MB',
        () =>
          Buffer.from(`<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><${rep('a', MB)}>`),
      ],
    ],
    generated: syntax(CAMT_PARTS, 1_000),
  },
  {
    name: 'QIF',
    read: bankFile('a.qif'),
    pathological: [
      ['a memo line of 10 MB', () => Buffer.from(`!Type:Bank\nD03/01/2026\nT-1.00\nM${rep('x', 10 * MB)}\n^\n`)],
      ['a date of 100,000 apostrophes', () => Buffer.from(`!Type:Bank\nD${rep("'", 100_000)}\nT-1.00\n^\n`)],
      ['50,000 records', () => Buffer.from(`!Type:Bank\n${rep('D03/01/2026\nT-1.00\n^\n', 50_000)}`)],
    ],
    generated: syntax(QIF_PARTS),
  },
  {
    name: 'PDF',
    read: document('application/pdf'),
    pathological: [
      ['an embedded file inflating to 100 MB (100 KB)', () => pdfWithEmbeddedFile({ inflatedBytes: 100 * MB })],
      ['the same with its /Length indirect', () => pdfWithEmbeddedFile({ inflatedBytes: 100 * MB, lengthKnown: false })],
      [
        '50,000 small compressed streams',
        () =>
          Buffer.from(
            `%PDF-1.7\n${rep('<< /Filter /FlateDecode >>\nstream\nx\u009c\u0003\u0000\u0000\u0000\u0000\u0001\nendstream\n', 50_000)}`,
            'latin1',
          ),
      ],
      ['a header and nothing else', () => Buffer.from('%PDF-1.7\n')],
      [
        'an object nested 100,000 deep',
        () => Buffer.from(`%PDF-1.7\n1 0 obj\n${rep('[', 100_000)}\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF`),
      ],
    ],
    generated: syntax(
      [
        '%PDF-1.7\n',
        '1 0 obj',
        'endobj',
        '<<',
        '>>',
        '/Type /Catalog',
        '/Filter /FlateDecode',
        'stream\n',
        'endstream',
        'xref',
        'trailer',
        '%%EOF',
        '[',
        ']',
        '(',
        ')',
      ],
      2_000,
    ).map((b) => Buffer.concat([Buffer.from('%PDF-1.7\n'), b])),
  },
  {
    name: 'image',
    read: async (bytes) => {
      const type: AcceptedType = bytes[0] === 0xff ? 'image/jpeg' : bytes[4] === 0x66 ? 'image/heic' : 'image/png';
      return document(type)(bytes);
    },
    pathological: [
      ['a PNG declaring 50,000 × 50,000 pixels', () => pngDeclaring(50_000, 50_000)],
      ['a JPEG declaring 65,500 × 65,500 pixels', () => jpegDeclaring()],
      [
        'a HEIC of nothing but its type box',
        () => Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), Buffer.alloc(16)]),
      ],
      ['a PNG cut after its header', () => createCanvas(2000, 2000).toBuffer('image/png').subarray(0, 40)],
    ],
    generated: fc
      .tuple(fc.integer({ min: 1, max: 200_000 }), fc.integer({ min: 1, max: 200_000 }), fc.uint8Array({ maxLength: 64 }))
      .map(([w, h, tail]) => Buffer.concat([pngDeclaring(w, h), Buffer.from(tail)])),
  },
  {
    name: 'e-invoice XML',
    read: document('application/xml'),
    pathological: [
      ['billion laughs', () => laughs('Invoice')],
      ['nesting 200,000 deep', () => Buffer.from(`<?xml version="1.0"?><Invoice>${rep('<a>', 200_000)}`)],
      [
        '100,000 attributes',
        () => Buffer.from(`<?xml version="1.0"?><Invoice ${Array.from({ length: 100_000 }, (_, i) => `a${i}="x"`).join(' ')}/>`),
      ],
      ['a 5 MB text', () => Buffer.from(`<?xml version="1.0"?><Invoice><ID>${rep('x', 5 * MB)}</ID></Invoice>`)],
    ],
    generated: syntax(XML_PARTS, 1_000),
  },
  {
    name: 'mail',
    read: async (bytes) => {
      try {
        await readMail(bytes);
        return { kind: 'read' };
      } catch (err) {
        return refusedBy(err);
      }
    },
    pathological: [
      [
        'multiparts nested 5,000 deep',
        () =>
          mail(
            `${Array.from({ length: 5_000 }, (_, i) => `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n`).join('')}x`,
          ),
      ],
      ['a header line of 5 MB', () => mail(`Subject: ${rep('x', 5 * MB)}\r\n\r\nbody`)],
      [
        '10,000 attachments',
        () =>
          mail(
            `Content-Type: multipart/mixed; boundary="b"\r\n\r\n${rep('--b\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename="a.pdf"\r\n\r\n%PDF-1.4\r\n', 10_000)}--b--\r\n`,
          ),
      ],
      [
        'a base64 attachment of 20 MiB of zeros',
        () =>
          mail(
            `Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\nContent-Type: application/pdf\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: attachment; filename="a.pdf"\r\n\r\n${Buffer.alloc(20 * MB).toString('base64')}\r\n--b--\r\n`,
          ),
      ],
      [
        'a gzip bomb named .pdf',
        () =>
          mail(
            `Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\nContent-Type: application/pdf\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: attachment; filename="a.pdf"\r\n\r\n${zlib.gzipSync(Buffer.alloc(100 * MB)).toString('base64')}\r\n--b--\r\n`,
          ),
      ],
    ],
    generated: syntax(MAIL_PARTS, 1_000),
  },
];
