import zlib from 'node:zlib';

/**
 * PDFs written byte by byte for the sandbox's tests: one page of text and an embedded file (EmbeddedFiles, as a
 * hybrid e-invoice carries its XML) whose FlateDecode stream inflates to `inflatedBytes` — 100 MB of zeros deflate
 * to about 100 KB. `lengthKnown: false` leaves the stream's /Length indirect, as some writers do.
 */
export function pdfWithEmbeddedFile(options: {
  inflatedBytes: number;
  fileName?: string;
  content?: Buffer;
  lengthKnown?: boolean;
  text?: string;
}): Buffer {
  const inner = options.content ?? Buffer.alloc(options.inflatedBytes, 0x20);
  const data = zlib.deflateSync(inner, { level: 9 });
  const name = options.fileName ?? 'factur-x.xml';
  const text = options.text ?? 'Rechnung RE-2026-001 Summe 119,00 EUR';
  const content = Buffer.from(`BT /F1 12 Tf 72 720 Td (${text}) Tj ET`);
  const length = options.lengthKnown === false ? '9 0 R' : String(data.length);
  const objects: Buffer[] = [
    Buffer.from(`<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(${name}) 7 0 R] >> >> >>`),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>'),
    Buffer.concat([Buffer.from(`<< /Length ${content.length} >>\nstream\n`), content, Buffer.from('\nendstream')]),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
    Buffer.concat([
      Buffer.from(`<< /Type /EmbeddedFile /Subtype /text#2Fxml /Filter /FlateDecode /Length ${length} >>\nstream\n`),
      data,
      Buffer.from('\nendstream'),
    ]),
    Buffer.from(`<< /Type /Filespec /F (${name}) /UF (${name}) /EF << /F 6 0 R >> >>`),
    Buffer.from('<< >>'),
    Buffer.from(String(data.length)),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let at = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(at);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(obj);
    at += obj.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
  ];
  parts.push(Buffer.from(`${xref.join('')}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`));
  return Buffer.concat(parts);
}
