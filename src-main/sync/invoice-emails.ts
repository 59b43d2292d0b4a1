import type { InvoiceDelivery } from '../../src-shared/contract/invoices';
import {
  freezeRelays,
  noteRelayAttempt,
  type RelayOutcome,
  type RelayRow,
  recordRelay,
  relaysToSend,
  relaysToWatch,
} from '../store/invoices/relays';
import { pathFor } from './capabilities';
import { checkLease, type RoundContext } from './context';
import { ok } from './remote-client';

/**
 * Invoice emails waiting for sync, sent by the remote (docs/decisions/0143-invoice-sync.md). One place sends a
 * team's invoices: a replica without an SMTP server (or whose invoice the remote numbers) hands each email to the
 * remote's send route once the invoice is there, so the customer gets the invoice the remote numbered. The last step
 * of a round, after the invoices are pushed:
 * 1. freeze: each waiting email of an invoice the remote holds gets its relay key, fixed once (store/invoices/relays);
 * 2. relay: `POST /invoices/{id}/send` (a reminder: `/remind`) with that key, so a retry after a lost answer makes
 *    the remote replay its answer instead of queueing a second email. A remote that takes no key (the hosted
 *    service) is asked once: after an attempt without an answer the email is marked failed, never sent twice;
 * 3. watch: the state of the remote's delivery is shown here (sending while the remote holds it, then sent or
 *    failed), read from a Finops Desk remote's deliveries; the hosted service shows none, so taken there is sent.
 */
export async function relayInvoiceEmails(ctx: RoundContext): Promise<void> {
  if (!ctx.caps.entities.invoice) return;
  ctx.db
    .transaction(() => {
      checkLease(ctx);
      freezeRelays(ctx.db, ctx.teamId, ctx.remote.id);
    })
    .immediate();
  for (const row of relaysToSend(ctx.db, ctx.teamId, ctx.remote.id)) await relay(ctx, row);
  if (ctx.caps.feed) for (const row of relaysToWatch(ctx.db, ctx.teamId, ctx.remote.id)) await watch(ctx, row);
}

function messageOf(body: unknown): string {
  const b = body as { message?: unknown; description?: unknown } | null;
  return [b?.message, b?.description].filter((x) => typeof x === 'string').join(': ') || 'no reason given';
}

async function relay(ctx: RoundContext, row: RelayRow): Promise<void> {
  // A Finops Desk remote honours the key; what the hosted service does with one is not known, so it is not relied on.
  const keyed = ctx.caps.feed;
  const route = row.kind === 'invoice' ? '/invoices/:id/send' : keyed ? '/invoices/:id/remind' : null;
  if (!route) {
    recordRelay(ctx.db, row, {
      state: 'failed',
      taken: false,
      note: 'the remote sends no payment reminders (the hosted service has no route for them): set up SMTP here to send it',
    });
    return;
  }
  if (!keyed && row.attempts > 0) {
    recordRelay(ctx.db, row, {
      state: 'failed',
      taken: false,
      note: 'an earlier attempt got no answer, and the remote takes no Idempotency-Key: it is not sent again, so the customer never gets it twice. Check the invoice on the remote and send it there if it did not go out',
    });
    return;
  }
  noteRelayAttempt(ctx.db, row.id);
  const res = await ctx.client.request<{ delivery?: InvoiceDelivery | null }>('POST', pathFor(route, row.remote_invoice_id), {
    body: { ...(row.recipient ? { to: row.recipient } : {}), ...(keyed ? { idempotencyKey: row.relay_key } : {}) },
    idempotencyKey: keyed ? row.relay_key : undefined,
  });
  if (!ok(res.status)) {
    recordRelay(ctx.db, row, {
      state: 'failed',
      taken: false,
      note: `the remote refused to send it (${res.status}): ${messageOf(res.body)}`,
    });
    return;
  }
  recordRelay(ctx.db, row, keyed ? mirror(res.body?.delivery ?? null) : { state: 'sent', taken: true });
}

async function watch(ctx: RoundContext, row: RelayRow): Promise<void> {
  if (!row.remote_delivery_id) return;
  const res = await ctx.client.request<{ data?: InvoiceDelivery[] }>(
    'GET',
    pathFor('/invoices/:id/deliveries', row.remote_invoice_id),
  );
  const theirs = ok(res.status) ? res.body?.data?.find((d) => d.id === row.remote_delivery_id) : undefined;
  if (!theirs) return;
  const outcome = mirror(theirs);
  if (outcome.state !== row.state || outcome.note !== row.last_error) recordRelay(ctx.db, row, outcome);
}

/** The remote's delivery as this side shows it. */
function mirror(d: InvoiceDelivery | null): RelayOutcome {
  if (!d) return { state: 'sent', taken: true };
  const at = { taken: true, remoteDeliveryId: d.id };
  switch (d.state) {
    case 'sent':
      return { ...at, state: 'sent', sentAt: d.sentAt };
    case 'failed':
      return { ...at, state: 'failed', note: `the remote could not send it: ${d.lastError ?? 'no reason given'}` };
    case 'canceled':
      return { ...at, state: 'canceled', note: 'canceled on the remote (its invoice was canceled there)' };
    case 'awaiting_sync':
      return { ...at, state: 'sending', note: 'the remote has no SMTP server either: it goes out through its own remote' };
    default:
      return { ...at, state: 'sending', note: null };
  }
}
