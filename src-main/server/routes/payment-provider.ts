import type { FastifyInstance, FastifyReply } from 'fastify';
import { paymentProviderRoutes as r } from '../../../src-shared/contract/payment-provider';
import { dueMinor } from '../../../src-shared/domain/invoice-settlement';
import type { Db } from '../../store/db';
import { settlementOf } from '../../store/invoices/payment-links';
import { recordPaymentIntentFailure } from '../../store/invoices/payment-records';
import { getInvoiceRow } from '../../store/invoices/read';
import { teamRemote } from '../../store/sync/remotes';
import type { ServerCredentialSources } from '../../sync/credentials';
import { NO_REMOTE, type RelayRequest, relayToRemote, remoteRecordId } from '../../sync/relay';
import { conflict, notFound, unprocessable } from '../errors';
import { keyOf, relayer, stringsOf } from '../relayed';
import { registerRoute } from '../route';

/**
 * The payment-provider routes (contract/payment-provider.ts): relayed to the team's sync remote (sync/relay.ts), or
 * answered "not connected" with the reason. A payment intent is checked here first — the invoice is the team's and
 * still has something due — and names the invoice by the id the remote knows it by.
 */
const NOT_CONNECTED = 'Not connected to a payment provider';

export function registerPaymentProviderRoutes(app: FastifyInstance, db: Db, sources: ServerCredentialSources): void {
  const { relayed, answer } = relayer(db, sources, NOT_CONNECTED);

  registerRoute(app, r.connect, async ({ auth, query, reply }) =>
    answer(
      reply,
      await relayed(auth.teamId, { method: 'GET', path: '/invoice-payments/connect-stripe', query: stringsOf(query) }),
    ),
  );
  registerRoute(app, r.connectCallback, async ({ auth, query, reply }) =>
    answer(
      reply,
      await relayed(auth.teamId, {
        method: 'GET',
        path: '/invoice-payments/connect-stripe/callback',
        query: stringsOf(query),
      }),
    ),
  );
  registerRoute(app, r.disconnect, async ({ auth, body, reply }) =>
    answer(reply, await relayed(auth.teamId, { method: 'POST', path: '/invoice-payments/disconnect-stripe', body })),
  );
  registerRoute(app, r.status, async ({ auth, reply }) => {
    const outcome = await relayToRemote(db, auth.teamId, { method: 'GET', path: '/invoice-payments/stripe-status' }, sources);
    if (outcome.kind === 'offline') return { provider: 'stripe', connected: false, reason: outcome.reason };
    return answer(reply, outcome);
  });

  /**
   * A payment intent for an open invoice of the team, sent on naming the invoice by the remote's id of it. A refusal
   * of the provider (402) is a failed payment: recorded before the answer goes back.
   */
  async function intent(
    teamId: string,
    invoiceId: string | undefined,
    reply: FastifyReply,
    missing: (id: string) => Error,
    request: (remoteInvoiceId: string) => RelayRequest,
  ): Promise<FastifyReply> {
    const inv = invoiceId ? getInvoiceRow(db, teamId, invoiceId) : undefined;
    if (!inv) throw missing(invoiceId ?? '');
    if (dueMinor(settlementOf(db, teamId, inv)) === 0) {
      throw conflict(`The invoice is ${inv.status}: nothing is due on it`, 'Only an unpaid or overdue invoice can be paid');
    }
    const remote = teamRemote(db, teamId);
    if (!remote) throw conflict(NOT_CONNECTED, NO_REMOTE);
    const remoteId = remoteRecordId(db, teamId, 'invoice', inv.id);
    if (!remoteId) {
      throw conflict(
        NOT_CONNECTED,
        `The invoice is not on the remote ${remote.baseUrl} yet: sync first (it goes there with the next round), then its payment provider can take a payment for it.`,
      );
    }
    const outcome = await relayed(teamId, request(remoteId));
    if (outcome.status === 402) recordPaymentIntentFailure(db, teamId, inv.id, refusalOf(outcome.body));
    return answer(reply, outcome);
  }

  registerRoute(app, r.intent, ({ auth, body, request, reply }) =>
    intent(
      auth.teamId,
      body.invoiceId,
      reply,
      (id) => unprocessable(`invoiceId: the team has no invoice ${id}`, 'field: invoiceId'),
      (remoteId) => ({
        method: 'POST',
        path: '/invoice-payments/payment-intent',
        body: { ...body, invoiceId: remoteId },
        idempotencyKey: keyOf(request.headers),
      }),
    ),
  );
  registerRoute(app, r.invoiceIntent, ({ auth, params, body, request, reply }) =>
    intent(
      auth.teamId,
      params.id,
      reply,
      (id) => notFound(`invoice ${id} not found`),
      (remoteId) => ({
        method: 'POST',
        path: `/invoices/${encodeURIComponent(remoteId)}/payment-intent`,
        body,
        idempotencyKey: keyOf(request.headers),
      }),
    ),
  );
}

function refusalOf(body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as { message?: unknown; error?: unknown };
    if (typeof b.message === 'string') return b.message;
    if (typeof b.error === 'string') return b.error;
  }
  return 'the payment provider refused the payment';
}
