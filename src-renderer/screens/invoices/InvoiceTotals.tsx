/** Totals by currency above the list (never converted): of the tab's invoices, with what is outstanding and overdue. */
import { useTranslation } from 'react-i18next';
import { invoiceRoutes } from '../../../src-shared/contract/invoices';
import { useRead } from '../../data/use-read';
import { formatAmount } from '../../lib/format';
import { summaryQuery, type Tab } from './list-view';

export function InvoiceTotals({ tab }: { tab: Tab }) {
  const { t } = useTranslation('invoices');
  const summary = useRead(invoiceRoutes.summary, { query: summaryQuery(tab) });
  const rows = summary.data?.data ?? [];
  if (summary.isPending) return <div className="inv-totals skeleton-block" aria-busy="true" />;
  if (rows.length === 0) return null;
  return (
    <section className="inv-totals" aria-label={t('totals.label')}>
      {rows.map((r) => (
        <dl key={r.currency} className="tiles" aria-label={t('totals.in', { currency: r.currency })}>
          <div className="tile">
            <dt>{t(tab === 'all' ? 'totals.issued' : 'totals.inTab', { count: r.invoiceCount })}</dt>
            <dd>{formatAmount(r.totalAmount, r.currency)}</dd>
          </div>
          <div className="tile info">
            <dt>{t('totals.outstanding')}</dt>
            <dd>{formatAmount(r.outstanding, r.currency)}</dd>
          </div>
          <div className={`tile ${r.overdue > 0 ? 'bad' : ''}`}>
            <dt>{t('totals.overdue')}</dt>
            <dd>{formatAmount(r.overdue, r.currency)}</dd>
          </div>
          <div className="tile ok">
            <dt>{t('totals.paid')}</dt>
            <dd>{formatAmount(r.paid, r.currency)}</dd>
          </div>
        </dl>
      ))}
    </section>
  );
}
