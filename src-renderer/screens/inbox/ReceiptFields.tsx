/**
 * What was read from the receipt (merchant, amount, currency, date, VAT, website, note), to correct where the
 * reading went wrong: a corrected amount, currency, date or merchant is matched again. The VAT is shown as found.
 */
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import { type InboxItem, inboxRoutes } from '../../../src-shared/contract/inbox';
import { Field } from '../../components/ui';
import { useWrite } from '../../data/use-write';
import { fieldErrorsFrom } from '../../lib/field-errors';
import { formatNumber } from '../../lib/format';
import { parseDecimal } from '../../lib/parse-number';
import { useToasts } from '../../stores/toasts';
import { vatText } from './inbox-columns';
import { isBusy } from './inbox-view';

interface Draft {
  displayName: string;
  amount: string;
  currency: string;
  date: string;
  website: string;
  description: string;
}

const draftOf = (i: InboxItem): Draft => ({
  displayName: i.displayName ?? '',
  amount: i.amount === null ? '' : formatNumber(i.amount, 2),
  currency: i.currency ?? '',
  date: i.date ?? '',
  website: i.website ?? '',
  description: i.description ?? '',
});

export function ReceiptFields({ item }: { item: InboxItem }) {
  const { t } = useTranslation('inbox');
  const update = useWrite(inboxRoutes.update);
  const toast = useToasts();
  // The form follows the item until someone types (extraction may finish while the page is open).
  const [edited, setEdited] = useState<Draft | null>(null);
  const draft = edited ?? draftOf(item);
  const [errors, setErrors] = useState<Partial<Record<keyof Draft, string>>>({});
  const set = (patch: Partial<Draft>) => setEdited({ ...draft, ...patch });

  async function save(e: FormEvent) {
    e.preventDefault();
    const amount = draft.amount.trim() ? parseDecimal(draft.amount) : null;
    if (draft.amount.trim() && (amount === null || amount < 0)) return setErrors({ amount: t('fields.amountInvalid') });
    setErrors({});
    try {
      await update.mutateAsync({
        params: { id: item.id },
        body: {
          displayName: draft.displayName,
          amount,
          ...(draft.currency.trim() ? { currency: draft.currency.trim().toUpperCase() } : {}),
          date: draft.date || null,
          website: draft.website,
          description: draft.description,
        },
      });
      setEdited(null);
      toast.show(t('fields.saved'));
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 422) setErrors(fieldErrorsFrom(err) as typeof errors);
      else toast.error(err, t('fields.saveFailed'));
    }
  }

  const text = (key: keyof Draft, label: string, options: { type?: string; className?: string; inputMode?: 'decimal' } = {}) => (
    <Field label={label} error={errors[key]} className={options.className}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          className={`input ${options.inputMode ? 'num' : ''}`}
          type={options.type ?? 'text'}
          inputMode={options.inputMode}
          value={draft[key]}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          onChange={(e) => set({ [key]: e.target.value })}
        />
      )}
    </Field>
  );

  return (
    <form className="card inbox-card" aria-labelledby="inbox-fields-title" onSubmit={save} noValidate>
      <h2 id="inbox-fields-title">{t('fields.title')}</h2>
      <p className="faint small">{isBusy(item.status) ? t('fields.reading') : t('fields.intro')}</p>
      <div className="grid-3">
        {text('displayName', t('fields.merchant'), { className: 'span-2' })}
        {text('date', t('fields.date'), { type: 'date' })}
        {text('amount', t('fields.amount'), { inputMode: 'decimal' })}
        {text('currency', t('fields.currency'))}
        <div className="field">
          <span className="label">{t('fields.vat')}</span>
          <span className="money" data-testid="inbox-vat">
            {vatText(item, t)}
          </span>
        </div>
        {text('website', t('fields.website'), { className: 'span-2' })}
      </div>
      {text('description', t('fields.note'))}
      <div className="panel-actions">
        <button type="submit" className="btn" disabled={!edited || update.isPending}>
          {t('fields.save')}
        </button>
        {edited ? (
          <button type="button" className="btn ghost" onClick={() => setEdited(null)}>
            {t('fields.reset')}
          </button>
        ) : null}
      </div>
    </form>
  );
}
