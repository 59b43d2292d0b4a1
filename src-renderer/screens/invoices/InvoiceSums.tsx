/**
 * An invoice's totals under its lines: subtotal, the VAT of each rate (19 % and 7 % on one invoice are two rows, as
 * the PDF states them), tax, discount and the total due.
 */
import { useTranslation } from 'react-i18next';
import { formatAmount, formatNumber } from '../../lib/format';

const rateText = (rate: number) => formatNumber(rate, Number.isInteger(rate) ? 0 : 2);

export function InvoiceSums(props: {
  currency: string;
  /** Null while the figures cannot be computed yet (a form being typed): dashes. */
  sums: { subtotal: number; vat: number; tax?: number; discount: number; total: number } | null;
  /** The VAT per rate; one VAT row each. Omitted or empty: one row for all of it. */
  vatGroups?: readonly { rate: number; vat: number }[] | undefined;
  /** The one rate to name on a single VAT row; null: the invoice charges no VAT (no row). */
  vatRate?: number | null;
  live?: boolean;
}) {
  const { t } = useTranslation('invoices');
  const { sums } = props;
  const money = (n: number | undefined) => (sums && n !== undefined ? formatAmount(n, props.currency) : '—');
  const rate = props.vatRate;
  const groups = props.vatGroups ?? [];
  return (
    <dl className="inv-sums" aria-live={props.live ? 'polite' : undefined}>
      <dt>{t('sums.subtotal')}</dt>
      <dd>{money(sums?.subtotal)}</dd>
      {rate === null ? null : groups.length > 0 ? (
        groups.map((g) => (
          <div key={g.rate} className="inv-sums-row" data-vat-rate={g.rate}>
            <dt>{t('sums.vatAt', { rate: rateText(g.rate) })}</dt>
            <dd>{money(g.vat)}</dd>
          </div>
        ))
      ) : (
        <>
          <dt>{rate === undefined ? t('sums.vat') : t('sums.vatAt', { rate: rateText(rate) })}</dt>
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
