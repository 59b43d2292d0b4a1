/**
 * What an issued invoice has received (docs/decisions/0147, 0123): each payment and refund with its day, amount and
 * where it came from (a bank line, linked to the transaction, or recorded by hand), what was paid in all and what is
 * still open. A payment is undone from here (the invoice reopens for its amount; its bank line is restored).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paymentRoutes } from '../../../src-shared/contract/invoice-payments';
import type { Invoice } from '../../../src-shared/contract/invoices';
import { transactionRoutes } from '../../../src-shared/contract/transactions';
import { AppLink } from '../../components/AppLink';
import { ConfirmDialog } from '../../components/ui';
import { useRecord } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { formatAmount, formatDate } from '../../lib/format';
import { useToasts } from '../../stores/toasts';

type PaymentRef = Invoice['payments'][number];

export function PaymentsCard({ invoice: inv }: { invoice: Invoice }) {
  const { t } = useTranslation('invoices');
  const [undoing, setUndoing] = useState<PaymentRef | null>(null);
  const unmatch = useWrite(paymentRoutes.delete);
  const toast = useToasts();
  const issued = inv.status !== 'draft' && inv.status !== 'scheduled' && inv.status !== 'canceled';
  if (!issued) return null;

  async function undo(p: PaymentRef) {
    try {
      await unmatch.mutateAsync({ params: { id: p.id } });
      toast.show(t('payments.undone', { amount: formatAmount(p.amount, p.currency) }));
      setUndoing(null);
    } catch (err) {
      toast.error(err, t('payments.undoFailed'));
    }
  }

  return (
    <section className="card padded inv-payments" aria-labelledby="inv-payments-title">
      <h2 id="inv-payments-title">{t('payments.title')}</h2>
      {inv.payments.length === 0 ? (
        <p className="muted">{t('payments.none')}</p>
      ) : (
        <ul className="payment-rows">
          {inv.payments.map((p) => (
            <PaymentRow
              key={p.id}
              payment={p}
              onUndo={p.kind === 'refund' || inv.refundedAmount === 0 ? () => setUndoing(p) : undefined}
            />
          ))}
        </ul>
      )}
      <dl className="facts tight">
        <div className="fact">
          <dt>{t('payments.paid')}</dt>
          <dd className="money">{formatAmount(inv.paidAmount, inv.currency)}</dd>
        </div>
        {inv.refundedAmount > 0 ? (
          <div className="fact">
            <dt>{t('payments.refunded')}</dt>
            <dd className="money">{formatAmount(inv.refundedAmount, inv.currency)}</dd>
          </div>
        ) : null}
        <div className="fact">
          <dt>{t('payments.open')}</dt>
          <dd className="money" data-testid="amount-open">
            {formatAmount(inv.amountDue, inv.currency)}
          </dd>
        </div>
      </dl>
      {undoing ? (
        <ConfirmDialog
          title={t('payments.undoTitle', { amount: formatAmount(undoing.amount, undoing.currency) })}
          body={<p>{t('payments.undoText')}</p>}
          confirmLabel={t('payments.undo')}
          danger
          busy={unmatch.isPending}
          onConfirm={() => void undo(undoing)}
          onCancel={() => setUndoing(null)}
        />
      ) : null}
    </section>
  );
}

function PaymentRow({ payment: p, onUndo }: { payment: PaymentRef; onUndo?: () => void }) {
  const { t } = useTranslation('invoices');
  const tx = useRecord(transactionRoutes.get, { id: p.transactionId ?? '' }, { enabled: Boolean(p.transactionId) });
  const source = p.transactionId ? (tx.data?.counterpartyName ?? tx.data?.name ?? '…') : null;
  return (
    <li className="payment-row" data-payment-id={p.id}>
      <span className="grow">
        <strong className="money">{formatAmount(p.kind === 'refund' ? -p.amount : p.amount, p.currency)}</strong>{' '}
        <span className="faint">· {formatDate(p.date)} · </span>
        {source ? (
          <AppLink to={`/transactions?q=${encodeURIComponent(tx.data?.name ?? '')}`}>
            {t(p.kind === 'refund' ? 'payments.refundTo' : 'payments.fromBank', { name: source })}
          </AppLink>
        ) : (
          <span>{t(p.kind === 'refund' ? 'payments.refundByHand' : 'payments.byHandShort')}</span>
        )}
      </span>
      {onUndo ? (
        <button type="button" className="btn ghost small" onClick={onUndo}>
          {t('payments.undo')}
          <span className="sr-only">: {formatAmount(p.amount, p.currency)}</span>
        </button>
      ) : null}
    </li>
  );
}
