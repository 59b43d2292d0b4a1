import type { EditorDoc, InvoiceCreate, InvoicePatch, TemplateInput } from '../../../src-shared/contract/invoices';
import { plainText } from '../../../src-shared/domain/editor-text';
import { InvalidReference } from '../errors';

/**
 * The hosted invoice editor's rich-text blocks in an invoice write (docs/decisions/0163-hosted-client-shapes.md):
 * each block's plain text goes where the invoice prints text (the template's from and payment blocks, the note),
 * and the document as sent is kept beside the invoice (`invoices.rich_text`) and answered as it came. A block given
 * later as plain text replaces its document; a line's name is handled with the lines (./content.ts).
 */

/** The documents kept with an invoice, by the hosted field names. */
export interface EditorBlocks {
  fromDetails?: EditorDoc;
  paymentDetails?: EditorDoc;
  customerDetails?: EditorDoc;
  noteDetails?: EditorDoc;
  topBlock?: EditorDoc;
  bottomBlock?: EditorDoc;
}

const TEMPLATE_BLOCKS = ['fromDetails', 'paymentDetails', 'customerDetails', 'noteDetails'] as const;

const isDoc = (v: unknown): v is EditorDoc => typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'doc';

/** A template input with every rich-text block as its plain text (what a template holds and prints). */
export function plainTemplateInput(t: TemplateInput | undefined): TemplateInput | undefined {
  if (!t) return t;
  const out: Record<string, unknown> = { ...t };
  for (const key of TEMPLATE_BLOCKS) if (out[key] !== undefined) out[key] = plainText(out[key]) || null;
  return out as TemplateInput;
}

/** Plain text as a document of its lines (a top or bottom block sent as text is kept like one sent as a document). */
function asDoc(text: string): EditorDoc {
  return {
    type: 'doc',
    content: text
      .split('\n')
      .map((line) => (line ? { type: 'paragraph', content: [{ type: 'text', text: line }] } : { type: 'paragraph' })),
  };
}

export function readBlocks(stored: string | null): EditorBlocks {
  if (!stored) return {};
  try {
    const v = JSON.parse(stored) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as EditorBlocks) : {};
  } catch {
    return {};
  }
}

export interface EditorWrite {
  /** Template fields the blocks set (plain text), over the body's own template. */
  template: TemplateInput;
  /** The note, when a block sets it. */
  note?: string | null;
  /** The documents to keep (JSON for `invoices.rich_text`), null: none. */
  richText: string | null;
}

/**
 * What the hosted fields of a create or patch write: the body's top-level blocks win over its template's (the hosted
 * template holds the team's defaults, the top level this invoice's); `existing` is what the invoice keeps so far.
 */
export function editorWrite(
  input: InvoiceCreate | InvoicePatch,
  existing: EditorBlocks,
  options: { create: boolean },
): EditorWrite {
  const blocks: EditorBlocks = { ...existing };
  const template: Record<string, unknown> = {};
  const raw = (input.template ?? {}) as Record<string, unknown>;
  const keep = (key: keyof EditorBlocks, value: unknown) => {
    if (value === undefined) return;
    if (isDoc(value)) blocks[key] = value;
    else delete blocks[key];
  };
  for (const key of ['fromDetails', 'paymentDetails'] as const) {
    const top = input[key];
    if (top !== undefined) {
      template[key] = plainText(top) || null;
      keep(key, top);
    } else keep(key, raw[key]);
  }
  keep('customerDetails', raw.customerDetails);
  if (input.logoUrl !== undefined) template.logoUrl = input.logoUrl;

  let note: string | null | undefined;
  if (input.noteDetails !== undefined) {
    const text = plainText(input.noteDetails) || null;
    if (input.note !== undefined && (input.note ?? null) !== text) {
      throw new InvalidReference('noteDetails', 'noteDetails and note are the same note: send one, or the same text in both');
    }
    note = text;
    keep('noteDetails', input.noteDetails);
  } else if (options.create && input.note === undefined && raw.noteDetails !== undefined) {
    // The hosted template's note is the default of a new invoice that brings none.
    note = plainText(raw.noteDetails) || null;
    keep('noteDetails', raw.noteDetails);
  } else if (input.note !== undefined) {
    delete blocks.noteDetails;
  }

  for (const key of ['topBlock', 'bottomBlock'] as const) {
    const v = input[key];
    if (v === undefined) continue;
    if (v === null || v === '') delete blocks[key];
    else blocks[key] = isDoc(v) ? v : asDoc(v);
  }
  return {
    template: { ...plainTemplateInput(input.template), ...template } as TemplateInput,
    ...(note !== undefined ? { note } : {}),
    richText: Object.keys(blocks).length ? JSON.stringify(blocks) : null,
  };
}
