/** An invoice's totals under its lines: subtotal, VAT (at its rate when known), tax, discount and the total due. */
import { useTranslation } from 'react-i18next';
import { formatAmount, formatNumber } from '../../lib/format';

export function InvoiceSums(props: {
  currency: string;
  /** Null while the figures cannot be computed yet (a form being typed): dashes. */
  sums: { subtotal: number; vat: number; tax?: number; discount: number; total: number } | null;
  vatRate?: number | null;
  live?: boolean;
}) {
  const { t } = useTranslation('invoices');
  const { sums } = props;
  const money = (n: number | undefined) => (sums && n !== undefined ? formatAmount(n, props.currency) : '—');
  const rate = props.vatRate;
  return (
    <dl className="inv-sums" aria-live={props.live ? 'polite' : undefined}>
      <dt>{t('sums.subtotal')}</dt>
      <dd>{money(sums?.subtotal)}</dd>
      {rate === null ? null : (
        <>
          <dt>
            {rate === undefined ? t('sums.vat') : t('sums.vatAt', { rate: formatNumber(rate, Number.isInteger(rate) ? 0 : 2) })}
          </dt>
          <dd>{money(sums?.vat)}</dd>
        </>
      )}
      {sums?.tax ? (
        <>
          <dt>{t('sums.tax')}</dt>
          <dd>{money(sums.tax)}</dd>
        </>
      ) : null}
      {sums?.discount ? (
        <>
          <dt>{t('sums.discount')}</dt>
          <dd>−{money(sums.discount)}</dd>
        </>
      ) : null}
      <dt className="total">{t('sums.total')}</dt>
      <dd className="total" data-testid="invoice-total">
        {money(sums?.total)}
      </dd>
    </dl>
  );
}
