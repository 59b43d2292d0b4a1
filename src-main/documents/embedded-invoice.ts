import { pdfAttachments } from './pdf';

/**
 * The XML a hybrid e-invoice PDF carries: Factur-X names it factur-x.xml, ZUGFeRD 2.x zugferd-invoice.xml (1.x
 * ZUGFeRD-invoice.xml), the XRechnung profile xrechnung.xml. Null when the PDF has none of them (a plain PDF).
 */
const NAMES = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml'];

export async function embeddedInvoiceXml(pdf: Uint8Array): Promise<{ fileName: string; xml: string } | null> {
  const files = await pdfAttachments(pdf, (name) => NAMES.includes(name.toLowerCase()));
  for (const [name, content] of files) {
    if (NAMES.includes(name.toLowerCase())) {
      return { fileName: name, xml: new TextDecoder('utf-8').decode(content) };
    }
  }
  return null;
}
