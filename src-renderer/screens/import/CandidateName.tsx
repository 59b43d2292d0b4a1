/** A hand-entered transaction an imported row may match, named by its name, date and amount. */
import { transactionRoutes } from '../../../src-shared/contract/transactions';
import { useRecord } from '../../data/use-read';
import { formatAmount, formatDate } from '../../lib/format';

export function CandidateName({ id }: { id: string }) {
  const t = useRecord(transactionRoutes.get, { id });
  return (
    <>
      {t.data ? `${t.data.name}, ${formatDate(t.data.date.slice(0, 10))}, ${formatAmount(t.data.amount, t.data.currency)}` : '…'}
    </>
  );
}
