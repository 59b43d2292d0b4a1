import { createCanvas } from '@napi-rs/canvas';
import nodemailer from 'nodemailer';
import { RECEIPTS, receiptPdf } from '../fixtures/receipts';

/**
 * Real e-mail messages and receipt files for the inbox ingestion tests: messages are composed by nodemailer (the
 * MIME a mail client sends), pictures drawn with @napi-rs/canvas, the PDF is the receipt fixture's.
 */

export interface Attachment {
  filename: string;
  content: Buffer;
  contentType?: string;
  /** Referenced from the HTML body by `cid:` (a logo), not an attachment of its own. */
  cid?: string;
}

export async function composeMail(m: {
  messageId?: string;
  subject?: string;
  text?: string;
  html?: string;
  attachments?: Attachment[];
}): Promise<Buffer> {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const info = await transport.sendMail({
    from: 'Shop <billing@shop.example>',
    to: 'receipts@acme.example',
    subject: m.subject ?? 'Your receipt',
    text: m.text ?? 'Thank you for your purchase.',
    html: m.html,
    messageId: m.messageId,
    attachments: m.attachments,
  });
  return info.message as Buffer;
}

/** A small picture with some text on it, as PNG or JPEG; `seed` makes different bytes. */
export function picture(kind: 'png' | 'jpeg', seed: string): Buffer {
  const canvas = createCanvas(240, 120);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, 240, 120);
  ctx.fillStyle = '#000';
  ctx.font = '16px sans-serif';
  ctx.fillText(`Receipt ${seed}`, 16, 40);
  ctx.fillText('Total EUR 12,50', 16, 80);
  return kind === 'png' ? canvas.toBuffer('image/png') : canvas.toBuffer('image/jpeg', 80);
}

/** The Café Central receipt as a text PDF (its fields are known: EUR 23.40 on 2025-03-14). */
export function cafePdf(): Promise<Buffer> {
  return receiptPdf(RECEIPTS.find((r) => r.key === 'cafe-vienna')!);
}

export function otherPdf(key = 'pret-london'): Promise<Buffer> {
  return receiptPdf(RECEIPTS.find((r) => r.key === key)!);
}
