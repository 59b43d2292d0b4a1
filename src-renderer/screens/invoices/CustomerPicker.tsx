/** Choosing a customer: type part of a name, pick from the matches (components/RecordCombo.tsx). */
import { useTranslation } from 'react-i18next';
import { type Customer, customerRoutes } from '../../../src-shared/contract/customers';
import { RecordCombo } from '../../components/RecordCombo';
import { useCursorList } from '../../data/use-cursor-list';

function useCustomerMatches(q: string, enabled: boolean) {
  return useCursorList(customerRoutes.list, { q: q || undefined, pageSize: 8, sort: ['name', 'asc'] }, { enabled });
}

export function CustomerPicker(props: {
  id: string;
  value: Customer | null;
  onChange: (customer: Customer | null) => void;
  describedBy: string | undefined;
  invalid: boolean;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation('invoices');
  return (
    <RecordCombo
      {...props}
      label={t('form.customer')}
      placeholder={t('form.customerPlaceholder')}
      emptyText={t('form.noCustomer')}
      useMatches={useCustomerMatches}
      option={(c) => ({ id: c.id, label: c.name, detail: c.billingEmail ?? c.email ?? '' })}
    />
  );
}
