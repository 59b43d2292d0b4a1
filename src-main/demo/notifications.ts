/**
 * The team's notification feed over the last 90 days, derived from the other demo records so every one points at
 * something real: invoice_paid for recent payments, invoice_overdue for each overdue invoice, invoice_sent for recent
 * unpaid ones, customer_created for the newest customers, tracker_entry_created for some recent entries, plus the
 * bank-feed and inbox kinds (transactions_created, transactions_categorized, inbox_new, inbox_auto_matched,
 * inbox_needs_review, document_uploaded). Priority 1–3 for what asks for the user's attention, 4–10 for insights;
 * older items are read or archived, the last few days unread. No user ids: the demo creates no users.
 */
import { type EpochDay, isoDay } from './calendar';
import { type DemoWindow, type MakeId, stamp } from './context';
import type { DemoCustomer } from './customers';
import type { DemoInvoice } from './invoices';
import type { Prng } from './prng';
import type { DemoEntry } from './tracker';

export interface DemoNotification {
  id: string;
  type: string;
  priority: number;
  source: 'system' | 'user';
  status: 'unread' | 'read' | 'archived';
  metadata: Record<string, unknown>;
  createdAt: string;
  lastUsedAt: string | null;
}

const WINDOW_DAYS = 90;

export function generateNotifications(
  rng: Prng,
  w: DemoWindow,
  invoices: readonly DemoInvoice[],
  customers: readonly DemoCustomer[],
  entries: readonly DemoEntry[],
  makeId: MakeId,
): DemoNotification[] {
  const from = w.asOf - WINDOW_DAYS;
  const raw: {
    day: EpochDay;
    seconds: number;
    type: string;
    priority: number;
    source: 'system' | 'user';
    metadata: Record<string, unknown>;
  }[] = [];
  const money = (inv: DemoInvoice) => ({
    invoiceId: inv.id,
    invoiceNumber: inv.number,
    customerName: inv.customer.name,
    amountMinor: inv.amountMinor,
    currency: inv.currency,
  });
  for (const inv of invoices) {
    if (inv.paidDay !== null && inv.paidDay >= from) {
      raw.push({
        day: inv.paidDay,
        seconds: 9 * 3600,
        type: 'invoice_paid',
        priority: 2,
        source: 'system',
        metadata: money(inv),
      });
    }
    if (inv.status === 'overdue') {
      const day = Math.max(inv.dueDay + 1, from);
      raw.push({
        day,
        seconds: 7 * 3600,
        type: 'invoice_overdue',
        priority: 1,
        source: 'system',
        metadata: { ...money(inv), dueDate: isoDay(inv.dueDay) },
      });
    }
    if (inv.status === 'unpaid' && inv.issueDay >= from) {
      raw.push({
        day: inv.issueDay,
        seconds: 11 * 3600,
        type: 'invoice_sent',
        priority: 3,
        source: 'user',
        metadata: money(inv),
      });
    }
  }
  for (const c of customers) {
    if (c.since >= from && c.since <= w.asOf) {
      raw.push({
        day: c.since,
        seconds: 10 * 3600,
        type: 'customer_created',
        priority: 3,
        source: 'user',
        metadata: { customerId: c.id, customerName: c.name },
      });
    }
  }
  for (const e of rng.sample(
    entries.filter((x) => x.day >= w.asOf - 14),
    8,
  )) {
    raw.push({
      day: e.day,
      seconds: 17 * 3600,
      type: 'tracker_entry_created',
      priority: 3,
      source: 'user',
      metadata: { entryId: e.id, projectId: e.project.id, projectName: e.project.name, durationSeconds: e.durationSeconds },
    });
  }
  for (let day = from; day <= w.asOf; day += rng.int(3, 6)) {
    raw.push({
      day,
      seconds: 6 * 3600,
      type: 'transactions_created',
      priority: 5,
      source: 'system',
      metadata: { count: rng.int(4, 40) },
    });
    if (rng.chance(0.5)) {
      raw.push({
        day,
        seconds: 6 * 3600 + 120,
        type: 'transactions_categorized',
        priority: 6,
        source: 'system',
        metadata: { count: rng.int(2, 30) },
      });
    }
  }
  const receipts = [
    'receipt-lunch-lab.pdf',
    'hotel-invoice.pdf',
    'codehost-invoice.pdf',
    'train-ticket.pdf',
    'office-supplies.jpg',
    'flight-booking.pdf',
  ];
  for (let i = 0; i < 12; i++) {
    const fileName = rng.pick(receipts);
    const type = rng.pick(['inbox_new', 'inbox_auto_matched', 'inbox_needs_review', 'document_uploaded']);
    raw.push({
      day: rng.int(from, w.asOf),
      seconds: rng.int(8, 20) * 3600,
      type,
      priority: type === 'inbox_needs_review' ? 2 : type === 'inbox_auto_matched' ? 7 : 4,
      source: type === 'document_uploaded' ? 'user' : 'system',
      metadata: type === 'inbox_auto_matched' ? { fileName, confidence: Math.round(rng.real(0.9, 1) * 100) / 100 } : { fileName },
    });
  }
  raw.sort((a, b) => a.day - b.day || a.seconds - b.seconds || a.type.localeCompare(b.type));
  return raw.map((n) => {
    const age = w.asOf - n.day;
    const status = age <= 3 ? 'unread' : age > 45 && rng.chance(0.6) ? 'archived' : rng.chance(0.85) ? 'read' : 'unread';
    const createdAt = stamp(w, n.day, n.seconds);
    return {
      id: makeId(),
      type: n.type,
      priority: n.priority,
      source: n.source,
      status,
      metadata: n.metadata,
      createdAt,
      lastUsedAt: status === 'unread' ? null : stamp(w, n.day + rng.int(0, 3), n.seconds + 3600),
    };
  });
}
