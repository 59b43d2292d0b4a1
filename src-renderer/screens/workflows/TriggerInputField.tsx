/**
 * One value of a run's trigger data, asked for as what it is: a record the run is about is picked by its name
 * (an invoice by number or customer, a customer by name, a transaction by its text), anything else is typed.
 */
import { useTranslation } from 'react-i18next';
import { appTransactionRoutes, type ReviewRow } from '../../../src-shared/contract/app-transactions';
import type { Customer } from '../../../src-shared/contract/customers';
import { type Invoice, invoiceRoutes } from '../../../src-shared/contract/invoices';
import type { TriggerInput } from '../../../src-shared/domain/workflow-trigger-inputs';
import { RecordCombo } from '../../components/RecordCombo';
import { Field } from '../../components/ui';
import { useCursorList } from '../../data/use-cursor-list';
import { formatAmount, formatDate } from '../../lib/format';
import { CustomerPicker } from '../invoices/CustomerPicker';

function useInvoiceMatches(q: string, enabled: boolean) {
  return useCursorList(invoiceRoutes.list, { q: q || undefined, pageSize: 8 }, { enabled });
}

function useTransactionMatches(q: string, enabled: boolean) {
  return useCursorList(appTransactionRoutes.list, { q: q || undefined, pageSize: 8 }, { enabled });
}

/** What the form holds for an input: a picked record (its id is sent), or typed text. */
export type InputValue = { id: string } | string;

export function TriggerInputField(props: {
  input: TriggerInput;
  value: InputValue | undefined;
  error: string | undefined;
  onChange: (value: InputValue | undefined) => void;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation('workflows');
  const { input } = props;
  const label = t(`start.inputs.${input.key}`, { defaultValue: input.key });
  const hint = input.resource ? t(`start.pick.${input.resource}`) : t('start.typed');
  const picked = (v: { id: string } | null) => props.onChange(v ?? undefined);
  return (
    <Field label={label} required={input.required} error={props.error} hint={hint}>
      {({ id, describedBy, invalid }) =>
        input.resource === 'invoice' ? (
          <RecordCombo<Invoice>
            id={id}
            label={label}
            placeholder={t('start.invoicePlaceholder')}
            emptyText={t('start.noInvoice')}
            value={null}
            onChange={picked}
            useMatches={useInvoiceMatches}
            option={(inv) => ({
              id: inv.id,
              label: `${inv.invoiceNumber} · ${inv.customerName ?? ''}`,
              detail: `${formatAmount(inv.amount, inv.currency)} · ${t(`invoices:status.${inv.status}`)}`,
            })}
            describedBy={describedBy}
            invalid={invalid}
            autoFocus={props.autoFocus}
          />
        ) : input.resource === 'customer' ? (
          <CustomerPicker
            id={id}
            value={null}
            onChange={(c: Customer | null) => picked(c)}
            describedBy={describedBy}
            invalid={invalid}
            autoFocus={props.autoFocus}
          />
        ) : input.resource === 'transaction' ? (
          <RecordCombo<ReviewRow>
            id={id}
            label={label}
            placeholder={t('start.transactionPlaceholder')}
            emptyText={t('start.noTransaction')}
            value={null}
            onChange={picked}
            useMatches={useTransactionMatches}
            option={(tx) => ({
              id: tx.id,
              label: tx.name,
              detail: `${formatDate(tx.date)} · ${formatAmount(tx.amount, tx.currency)}`,
            })}
            describedBy={describedBy}
            invalid={invalid}
            autoFocus={props.autoFocus}
          />
        ) : (
          <input
            id={id}
            className="input"
            value={typeof props.value === 'string' ? props.value : ''}
            onChange={(e) => props.onChange(e.target.value)}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            // biome-ignore lint/a11y/noAutofocus: the dialog opens on its first field
            autoFocus={props.autoFocus}
            autoComplete="off"
          />
        )
      }
    </Field>
  );
}
