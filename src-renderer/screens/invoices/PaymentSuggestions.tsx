/**
 * Payments the matcher found but did not apply (docs/decisions/0076: an exact amount, not sure enough to book by
 * itself): each names the invoice and the incoming transaction, and is accepted (the invoice is paid, the
 * transaction linked) or dismissed (never proposed again). On the list for every invoice; on a detail for its own.
 */
import { useTranslation } from 'react-i18next';
import { type InvoicePayment, paymentRoutes } from '../../../src-shared/contract/invoice-payments';
import { transactionRoutes } from '../../../src-shared/contract/transactions';
import { TableFooter } from '../../components/table/TableFooter';
import { ErrorBanner } from '../../components/ui';
import { useCursorList } from '../../data/use-cursor-list';
import { useRecord } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { formatAmount, formatDate, formatNumber } from '../../lib/format';
import { useRouter } from '../../lib/router';
import { useToasts } from '../../stores/toasts';

export function PaymentSuggestions({ invoiceId }: { invoiceId?: string }) {
  const { t } = useTranslation('invoices');
  const list = useCursorList(paymentRoutes.list, { states: ['suggested'], pageSize: 5, ...(invoiceId ? { invoiceId } : {}) });
  const accept = useWrite(paymentRoutes.create);
  const dismiss = useWrite(paymentRoutes.delete);
  const toast = useToasts();
  if (list.error) return <ErrorBanner error={list.error} onRetry={list.refetch} />;
  if (list.items.length === 0) return null;
  const busy = accept.isPending || dismiss.isPending;

  async function onAccept(p: InvoicePayment) {
    try {
      await accept.mutateAsync({ body: { invoiceId: p.invoiceId, transactionId: p.transactionId ?? '' } });
      toast.show(t('suggestions.accepted', { number: p.invoiceNumber ?? '' }));
    } catch (err) {
      toast.error(err, t('suggestions.acceptFailed'));
    }
  }
  async function onDismiss(p: InvoicePayment) {
    try {
      await dismiss.mutateAsync({ params: { id: p.id } });
      toast.show(t('suggestions.dismissed'));
    } catch (err) {
      toast.error(err, t('suggestions.dismissFailed'));
    }
  }

  return (
    <section className="card inv-suggestions" aria-labelledby="inv-suggestions-title">
      <div className="section-head">
        <h2 id="inv-suggestions-title">{t('suggestions.title')}</h2>
        <p className="muted">{t('suggestions.intro')}</p>
      </div>
      <ul className="suggestion-list">
        {list.items.map((p) => (
          <Suggestion key={p.id} payment={p} linkInvoice={!invoiceId} busy={busy} onAccept={onAccept} onDismiss={onDismiss} />
        ))}
      </ul>
      {list.hasNextPage ? <TableFooter status={t('suggestions.more')} more={list} /> : null}
    </section>
  );
}

function Suggestion(props: {
  payment: InvoicePayment;
  linkInvoice: boolean;
  busy: boolean;
  onAccept: (p: InvoicePayment) => void;
  onDismiss: (p: InvoicePayment) => void;
}) {
  const { t } = useTranslation('invoices');
  const { payment: p } = props;
  const navigate = useRouter((r) => r.navigate);
  const tx = useRecord(transactionRoutes.get, { id: p.transactionId ?? '' }, { enabled: Boolean(p.transactionId) });
  const what = t('suggestions.what', { number: p.invoiceNumber ?? '' });
  return (
    <li className="suggestion" data-payment-id={p.id}>
      <div className="grow">
        <div>
          {props.linkInvoice ? (
            <a
              href={`/invoices/${p.invoiceId}`}
              onClick={(e) => {
                e.preventDefault();
                navigate(`/invoices/${p.invoiceId}`);
              }}
            >
              {p.invoiceNumber}
            </a>
          ) : (
            <strong>{p.invoiceNumber}</strong>
          )}{' '}
          · <span className="money">{formatAmount(p.amount, p.currency)}</span>
        </div>
        <div className="faint small">
          {t('suggestions.paidBy', {
            name: tx.data?.counterpartyName ?? tx.data?.name ?? '…',
            day: formatDate(p.date),
          })}{' '}
          · {t('suggestions.confidence', { percent: formatNumber(Math.round((p.confidence ?? 0) * 100)) })}
        </div>
      </div>
      <button type="button" className="btn primary small" disabled={props.busy} onClick={() => props.onAccept(p)}>
        {t('suggestions.accept')}
        <span className="sr-only">: {what}</span>
      </button>
      <button type="button" className="btn ghost small" disabled={props.busy} onClick={() => props.onDismiss(p)}>
        {t('suggestions.dismiss')}
        <span className="sr-only">: {what}</span>
      </button>
    </li>
  );
}
