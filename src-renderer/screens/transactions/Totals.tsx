/** The sums of the filtered set (every row it holds, not only those loaded), per currency: in, out and net. */
import { useTranslation } from 'react-i18next';
import type { TransactionTotals } from '../../../src-shared/contract/app-transactions';
import { formatAmount } from '../../lib/format';

export function Totals({ totals }: { totals: TransactionTotals['data'] | undefined }) {
  const { t } = useTranslation('transactions');
  if (!totals?.length) return null;
  return (
    <span className="tx-totals">
      <span className="sr-only">{t('totals.label')}: </span>
      {totals.map((c) => (
        <span key={c.currency} className="tx-total">
          {t('totals.line', {
            in: formatAmount(c.moneyIn, c.currency),
            out: formatAmount(c.moneyOut, c.currency),
            net: formatAmount(c.net, c.currency),
          })}
        </span>
      ))}
    </span>
  );
}
