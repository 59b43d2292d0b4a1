import type PDFKitDocument from 'pdfkit';
import { formatDayAs } from '../../src-shared/domain/invoice-dates';
import { UNIT_PRICE_EXTRA_DECIMALS, type UnitPrice, unitPriceText } from '../../src-shared/domain/unit-price';
import { currencyExponent, toMajor } from '../../src-shared/money';

/**
 * The app's PDF building blocks on pdfkit (docs/decisions/0078-invoice-pdf.md), shared by the invoice PDF and the
 * ledger's account statement: a document with an embedded Unicode font (DejaVu Sans, so every locale's digits,
 * separators and currency signs print — the built-in Helvetica only knows Windows-1252), locale-aware money, number
 * and date formatting through Intl, a simple table that breaks across pages, and rendering to a Buffer.
 *
 * Documents are reproducible: the creation date is the caller's (the record's time), never the clock.
 */

export type PdfDocument = PDFKit.PDFDocument;

const FONT_FILES = {
  regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
} as const;

/** Font names registered on every document. */
export const FONT = { regular: 'Body', bold: 'Body-Bold' } as const;

let fontPaths: { regular: string; bold: string } | undefined;

function fonts(): { regular: string; bold: string } {
  fontPaths ??= { regular: require.resolve(FONT_FILES.regular), bold: require.resolve(FONT_FILES.bold) };
  return fontPaths;
}

export interface PdfOptions {
  size: 'a4' | 'letter';
  title: string;
  subject?: string;
  author?: string;
  /** The document's creation date (the record's time, for reproducible files). */
  createdAt: Date;
  margin?: number;
}

/**
 * pdfkit, with fontkit and its tables behind it (~8 MB of heap), loads with the first PDF a process makes rather
 * than with the server: most sessions make none (docs/decisions/0006).
 */
let pdfkit: typeof PDFKitDocument | undefined;

export function createPdf(options: PdfOptions): PdfDocument {
  pdfkit ??= require('pdfkit') as typeof PDFKitDocument;
  const doc = new pdfkit({
    size: options.size === 'letter' ? 'LETTER' : 'A4',
    margin: options.margin ?? 50,
    bufferPages: true,
    info: {
      Title: options.title,
      Subject: options.subject,
      Author: options.author,
      Creator: 'Finops Desk',
      Producer: 'Finops Desk (pdfkit)',
      CreationDate: options.createdAt,
      ModDate: options.createdAt,
    },
  });
  const f = fonts();
  doc.registerFont(FONT.regular, f.regular);
  doc.registerFont(FONT.bold, f.bold);
  doc.font(FONT.regular);
  return doc;
}

/** Ends the document and resolves with its bytes. */
export function renderPdf(doc: PdfDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

/** Minor units → "1.234,56 €" (de-DE) / "€1,234.56" (en-GB), with the currency's own exponent. */
export function moneyFormatter(locale: string, currency: string): (minor: number) => string {
  const exponent = currencyExponent(currency);
  const f = new Intl.NumberFormat(safeLocale(locale), {
    style: 'currency',
    currency,
    minimumFractionDigits: exponent,
    maximumFractionDigits: exponent,
  });
  return (minor) => f.format(toMajor(minor, currency));
}

/**
 * A unit price for people: the currency's decimals, and up to two more where the price has them (1,6349 €). The
 * exact decimal text is formatted (Intl formats a string without going through a double).
 */
export function unitPriceFormatter(locale: string, currency: string): (price: UnitPrice) => string {
  const exponent = currencyExponent(currency);
  const f = new Intl.NumberFormat(safeLocale(locale), {
    style: 'currency',
    currency,
    minimumFractionDigits: exponent,
    maximumFractionDigits: exponent + UNIT_PRICE_EXTRA_DECIMALS,
  });
  return (price) => f.format(unitPriceText(price, currency) as unknown as number);
}

/** A plain number in the locale (quantities, rates): up to `maxDecimals` decimals. */
export function numberFormatter(locale: string, maxDecimals = 4): (n: number) => string {
  const f = new Intl.NumberFormat(safeLocale(locale), { maximumFractionDigits: maxDecimals });
  return (n) => f.format(n);
}

/** A YYYY-MM-DD day in one of the hosted date formats (dd/MM/yyyy, MM/dd/yyyy, yyyy-MM-dd, dd.MM.yyyy, dd-MM-yyyy). */
export const formatDay = formatDayAs;

/** The locale if Intl knows it, else English (a stored template may carry anything). */
export function safeLocale(locale: string): string {
  try {
    return Intl.NumberFormat.supportedLocalesOf([locale]).length ? locale : 'en';
  } catch {
    return 'en';
  }
}

export interface TableColumn {
  header: string;
  /** Share of the text width (the widths are normalized). */
  width: number;
  align?: 'left' | 'right';
}

/**
 * Draws a table from the current y; rows break onto new pages with the header repeated. Returns the y below it.
 * Cells wrap within their column; a row is as tall as its tallest cell.
 */
export function drawTable(
  doc: PdfDocument,
  columns: readonly TableColumn[],
  rows: readonly (readonly string[])[],
  options: { fontSize?: number; y?: number } = {},
): number {
  const size = options.fontSize ?? 9;
  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const total = columns.reduce((s, c) => s + c.width, 0);
  const widths = columns.map((c) => (c.width / total) * width);
  const gap = 6;
  const bottom = () => doc.page.height - doc.page.margins.bottom;
  let y = options.y ?? doc.y;

  const rowHeight = (cells: readonly string[], font: string) => {
    doc.font(font).fontSize(size);
    return Math.max(...cells.map((c, i) => doc.heightOfString(c || ' ', { width: widths[i]! - gap }))) + 6;
  };
  const drawRow = (cells: readonly string[], font: string, at: number) => {
    doc.font(font).fontSize(size);
    let x = left;
    cells.forEach((c, i) => {
      doc.text(c, x + (i === 0 ? 0 : gap / 2), at + 3, {
        width: widths[i]! - gap,
        align: columns[i]?.align ?? 'left',
        lineBreak: true,
      });
      x += widths[i]!;
    });
  };
  const header = () => {
    const h = rowHeight(
      columns.map((c) => c.header),
      FONT.bold,
    );
    drawRow(
      columns.map((c) => c.header),
      FONT.bold,
      y,
    );
    y += h;
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .lineWidth(0.7)
      .strokeColor('#444444')
      .stroke();
  };

  header();
  for (const cells of rows) {
    const h = rowHeight(cells, FONT.regular);
    if (y + h > bottom()) {
      doc.addPage();
      y = doc.page.margins.top;
      header();
    }
    drawRow(cells, FONT.regular, y);
    y += h;
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .lineWidth(0.3)
      .strokeColor('#cccccc')
      .stroke();
  }
  doc.font(FONT.regular).fillColor('black');
  doc.x = left;
  doc.y = y + 4;
  return doc.y;
}

/** "Page 1 of 3" at the foot of every page (needs bufferPages, which createPdf sets). */
export function numberPages(doc: PdfDocument, label: (page: number, of: number) => string): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottomMargin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font(FONT.regular)
      .fontSize(8)
      .fillColor('#666666')
      .text(label(i - range.start + 1, range.count), doc.page.margins.left, doc.page.height - 30, {
        width: doc.page.width - doc.page.margins.left - doc.page.margins.right,
        align: 'center',
        lineBreak: false,
      });
    doc.page.margins.bottom = bottomMargin;
  }
  doc.fillColor('black');
}

/** The label set of a locale's language (`de-AT` → de), English for any language without one. */
export function labelsFor<L>(labels: { en: L } & Partial<Record<string, L>>, locale: string): L {
  return labels[locale.toLowerCase().split(/[-_]/)[0] ?? 'en'] ?? labels.en;
}

export interface PostalAddress {
  addressLine1?: string | null;
  addressLine2?: string | null;
  zip?: string | null;
  city?: string | null;
  state?: string | null;
  countryCode?: string | null;
}

/** An address as printed: street lines, "zip city state", and the country's name in the reader's language. */
export function addressLines(a: PostalAddress, locale: string): string[] {
  let country = a.countryCode ?? null;
  if (country) {
    try {
      country = new Intl.DisplayNames([safeLocale(locale)], { type: 'region' }).of(country) ?? country;
    } catch {
      // An unknown code is printed as it is.
    }
  }
  const cityLine = [a.zip, a.city, a.state].filter(Boolean).join(' ');
  return [a.addressLine1, a.addressLine2, cityLine || null, country].filter((x): x is string => Boolean(x));
}
