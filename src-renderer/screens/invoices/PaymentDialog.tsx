/**
 * Money received for an invoice, recorded by a person (docs/decisions/0123-payments-on-screen.md): all of what is
 * still due or part of it, on a day, and — when it came through the bank — from which bank line. The bank lines that
 * could pay it come first, best first (GET /v1/invoice-payments/candidates: money in, in its currency, up to what is
 * still due, not paying another invoice; a line such as "INV-0578 Teilzahlung" among them, a bank line or one entered
 * by hand); a search narrows them by text or amount. A bank line's amount and day are the payment's; without one the
 * person types them. The dialog says what stays open after it.
 */
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import { type PaymentCandidate, paymentRoutes } from '../../../src-shared/contract/invoice-payments';
import type { Invoice } from '../../../src-shared/contract/invoices';
import { dayIn } from '../../../src-shared/domain/invoice-dates';
import { toMajor, toMinor } from '../../../src-shared/money';
import { DateField } from '../../components/DateField';
import { ErrorBanner, Field, SearchInputField } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { formatAmount, formatDate, formatNumber, formatPreferences } from '../../lib/format';
import { currentMarks, parseDecimal } from '../../lib/parse-number';
import { useToasts } from '../../stores/toasts';
import { FormDialog } from './FormDialog';

/** No bank line: cash, a cheque, money that arrived outside the accounts here. */
const BY_HAND = '';

export function PaymentDialog(props: { invoice: Invoice; number: string; onDone: () => void }) {
  const { t } = useTranslation('invoices');
  const { invoice } = props;
  const marks = currentMarks();
  const [q, setQ] = useState('');
  const query = useDeferredValue(q.trim());
  const candidates = useRead(paymentRoutes.candidates, {
    query: { invoiceId: invoice.id, ...(query ? { q: query } : {}) },
  });
  const [chosen, setChosen] = useState<PaymentCandidate | null>(null);
  const [amount, setAmount] = useState(() => formatNumber(invoice.amountDue, 2));
  const [day, setDay] = useState(() => dayIn(new Date(), formatPreferences().timezone));
  const [error, setError] = useState<string | undefined>(undefined);
  const [failure, setFailure] = useState<unknown>(null);
  const record = useWrite(paymentRoutes.create);
  const toast = useToasts();

  const typedMinor = minorOf(parseDecimal(amount, marks), invoice.currency);
  const payingMinor = chosen ? toMinor(chosen.amount, chosen.currency) : typedMinor;
  const dueMinor = toMinor(invoice.amountDue, invoice.currency);
  const restMinor = payingMinor !== null && payingMinor > 0 ? dueMinor - payingMinor : null;

  function amountError(): string | undefined {
    if (chosen) return undefined;
    if (typedMinor === null || typedMinor <= 0) return t('payments.errors.amount');
    if (typedMinor > dueMinor) return t('payments.errors.tooMuch', { due: formatAmount(invoice.amountDue, invoice.currency) });
    return undefined;
  }

  async function submit() {
    const problem = amountError();
    if (problem) return setError(problem);
    if (!chosen && !day) return;
    setFailure(null);
    try {
      const body = chosen
        ? { invoiceId: invoice.id, transactionId: chosen.transactionId }
        : { invoiceId: invoice.id, amount: toMajor(typedMinor!, invoice.currency), date: day };
      await record.mutateAsync({ body });
      const paid = formatAmount(toMajor(payingMinor!, invoice.currency), invoice.currency);
      toast.show(
        restMinor !== null && restMinor > 0
          ? t('payments.recordedPart', {
              amount: paid,
              number: props.number,
              rest: formatAmount(toMajor(restMinor, invoice.currency), invoice.currency),
            })
          : t('payments.recordedAll', { amount: paid, number: props.number }),
      );
      props.onDone();
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 422) setError(err.message);
      else setFailure(err);
    }
  }

  const list = candidates.data?.data ?? [];
  return (
    <FormDialog
      title={t('payments.dialogTitle', { number: props.number })}
      submitLabel={t('payments.record')}
      busy={record.isPending}
      onSubmit={() => void submit()}
      onCancel={props.onDone}
      className="payment-dialog"
    >
      {failure ? <ErrorBanner error={failure} /> : null}
      <p className="muted" data-testid="payment-due">
        {t('payments.due', { amount: formatAmount(invoice.amountDue, invoice.currency) })}
      </p>
      <fieldset className="payment-source">
        <legend>{t('payments.source')}</legend>
        <SearchInputField label={t('payments.search')} hint={t('payments.searchHint')} value={q} onChange={setQ} />
        <ul className="payment-candidates" aria-label={t('payments.candidates')}>
          {list.map((c) => (
            <li key={c.transactionId}>
              <label className="check">
                <input
                  type="radio"
                  name="payment-source"
                  checked={chosen?.transactionId === c.transactionId}
                  onChange={() => {
                    setChosen(c);
                    setError(undefined);
                  }}
                />
                <span className="grow">
                  <span className="cand-name">{c.counterpartyName ?? c.transactionName}</span>{' '}
                  <span className="faint">
                    · {formatDate(c.date)}
                    {c.counterpartyName && c.transactionName !== c.counterpartyName ? ` · ${c.transactionName}` : ''}
                  </span>
                  {c.part ? <span className="pill neutral">{t('payments.part')}</span> : null}
                  {c.manual ? <span className="pill neutral">{t('payments.manual')}</span> : null}
                </span>
                <span className="money">{formatAmount(c.amount, c.currency)}</span>
              </label>
            </li>
          ))}
          {candidates.data && list.length === 0 ? <li className="faint">{t('payments.noCandidates')}</li> : null}
          <li>
            <label className="check">
              <input
                type="radio"
                name="payment-source"
                checked={chosen === null}
                value={BY_HAND}
                onChange={() => setChosen(null)}
              />
              <span className="grow">{t('payments.byHand')}</span>
            </label>
          </li>
        </ul>
      </fieldset>
      {chosen ? null : (
        <div className="grid-2">
          <Field label={t('payments.amount')} required error={error}>
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                name="amount"
                className="input"
                inputMode="decimal"
                value={amount}
                aria-invalid={invalid}
                aria-describedby={describedBy}
                onChange={(e) => {
                  setAmount(e.target.value);
                  setError(undefined);
                }}
                onBlur={() => setError(amountError())}
                autoComplete="off"
              />
            )}
          </Field>
          <DateField label={t('payments.day')} required value={day} onChange={(next) => setDay(next)} />
        </div>
      )}
      {chosen && error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <p className="payment-rest" role="status" data-testid="payment-rest">
        {restMinor === null
          ? ''
          : restMinor > 0
            ? t('payments.restAfter', { amount: formatAmount(toMajor(restMinor, invoice.currency), invoice.currency) })
            : restMinor === 0
              ? t('payments.paidInFull')
              : ''}
      </p>
    </FormDialog>
  );
}

/** An amount typed in minor units; null when it has more decimals than the currency has. */
function minorOf(value: number | null, currency: string): number | null {
  if (value === null) return null;
  try {
    return toMinor(value, currency);
  } catch {
    return null;
  }
}
