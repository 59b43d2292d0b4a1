import { CII_EN16931_ROOT, CII_EN16931_XSD } from './cii-en16931-xsd';

/**
 * XML Schema validation of the CII documents we issue, with libxml2 compiled to WebAssembly (npm libxml2-wasm: no
 * native build, the same on every OS the desktop app runs on). The schema is the Factur-X EN 16931 profile of
 * CII D16B (cii-en16931-xsd.ts). UBL 2.1's schemas are not shipped: no package of the npm registry or Debian carries
 * them, and this machine reaches nothing else (docs/decisions/0160-e-invoices.md); UBL output is checked by the
 * business rules and read back in the tests.
 *
 * libxml2-wasm is an ES module with top-level await, so it is loaded with import() on first use; the compiled
 * schema is kept for the life of the process.
 */

type Libxml = typeof import('libxml2-wasm');

let compiled: Promise<{ lib: Libxml; validator: import('libxml2-wasm').XsdValidator }> | undefined;

function load() {
  compiled ??= (async () => {
    const lib = await import('libxml2-wasm');
    const buffers: Record<string, Uint8Array> = {};
    for (const [name, text] of Object.entries(CII_EN16931_XSD)) buffers[name] = new TextEncoder().encode(text);
    lib.xmlRegisterInputProvider(new lib.XmlBufferInputProvider(buffers));
    const root = CII_EN16931_XSD[CII_EN16931_ROOT] ?? '';
    const xsd = lib.XmlDocument.fromString(root, { url: CII_EN16931_ROOT });
    return { lib, validator: lib.XsdValidator.fromDoc(xsd) };
  })();
  return compiled;
}

export interface SchemaError {
  line: number;
  /** The element's path in the document. */
  path: string;
  message: string;
}

/** The schema errors of a CII document; empty when it is valid. A document that is not XML is one error. */
export async function validateCii(xml: string): Promise<SchemaError[]> {
  const { lib, validator } = await load();
  let doc: import('libxml2-wasm').XmlDocument;
  try {
    doc = lib.XmlDocument.fromString(xml);
  } catch (err) {
    return [{ line: 0, path: '', message: `not well-formed XML: ${(err as Error).message.trim()}` }];
  }
  try {
    validator.validate(doc);
    return [];
  } catch (err) {
    const details = (err as { details?: { message: string; line: number; xpath?: string }[] }).details ?? [];
    if (details.length === 0) return [{ line: 0, path: '', message: (err as Error).message.trim() }];
    return details.map((d) => ({ line: d.line, path: d.xpath ?? '', message: d.message.trim() }));
  } finally {
    doc.dispose();
  }
}
