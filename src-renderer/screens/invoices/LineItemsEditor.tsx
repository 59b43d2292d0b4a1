/**
 * The invoice's lines: description, quantity, unit and price per row, each row's amount and the totals below as the
 * server will compute them (invoice-form.ts). A row is added with the button or Enter in the last price; a row
 * removed gives its place to the next one.
 */
import { useTranslation } from 'react-i18next';
import type { FieldErrors } from '../../lib/field-errors';
import { formatAmount } from '../../lib/format';
import type { NumberMarks } from '../../lib/parse-number';
import { InvoiceSums } from './InvoiceSums';
import { draftTotals, emptyLine, type InvoiceDraft, type LineDraft } from './invoice-form';

const FIELDS = ['name', 'quantity', 'unit', 'price'] as const;

export function LineItemsEditor(props: {
  draft: InvoiceDraft;
  errors: FieldErrors;
  marks: NumberMarks;
  onChange: (lines: LineDraft[]) => void;
}) {
  const { t } = useTranslation('invoices');
  const { draft, errors } = props;
  const lines = draft.lines;
  const totals = draftTotals(draft, props.marks);
  const currency = draft.currency.trim().toUpperCase();
  const money = (n: number | null | undefined) => (n === null || n === undefined || !totals ? '—' : formatAmount(n, currency));

  const update = (i: number, patch: Partial<LineDraft>) =>
    props.onChange(lines.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const add = () => {
    props.onChange([...lines, emptyLine()]);
    // Focus the new row's description once it is rendered.
    const next = `[data-field="lines.${lines.length}.name"]`;
    setTimeout(() => (document.querySelector(next) as HTMLInputElement | null)?.focus());
  };
  const remove = (i: number) => props.onChange(lines.length === 1 ? [emptyLine()] : lines.filter((_, j) => j !== i));

  return (
    <section className="form-section" aria-labelledby="lines-title">
      <h3 id="lines-title">{t('form.lines')}</h3>
      {errors.lines ? (
        <span className="error" role="alert">
          {errors.lines}
        </span>
      ) : null}
      <table className="line-editor">
        <thead>
          <tr>
            <th scope="col">{t('form.line.name')}</th>
            <th scope="col" className="num">
              {t('form.line.quantity')}
            </th>
            <th scope="col">{t('form.line.unit')}</th>
            <th scope="col" className="num">
              {t('form.line.price')}
            </th>
            <th scope="col" className="num">
              {t('form.line.amount')}
            </th>
            <th scope="col">
              <span className="sr-only">{t('common:actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line, i) => (
            <tr key={line.key}>
              {FIELDS.map((field) => {
                const key = `lines.${i}.${field}`;
                const error = errors[key];
                return (
                  <td key={field} className={field === 'quantity' || field === 'price' ? 'num' : undefined}>
                    <input
                      className="input"
                      data-field={key}
                      aria-label={t('form.lineField', { field: t(`form.line.${field}`), n: i + 1 })}
                      aria-invalid={Boolean(error)}
                      title={error}
                      inputMode={field === 'quantity' || field === 'price' ? 'decimal' : undefined}
                      value={line[field]}
                      onChange={(e) => update(i, { [field]: e.target.value })}
                      onKeyDown={(e) => {
                        if (e.key === 'Enter' && !e.ctrlKey && !e.metaKey && field === 'price' && i === lines.length - 1) {
                          e.preventDefault();
                          add();
                        }
                      }}
                      autoComplete="off"
                    />
                    {error ? <span className="error">{error}</span> : null}
                  </td>
                );
              })}
              <td className="num money">{money(totals?.lines[i])}</td>
              <td>
                <button
                  type="button"
                  className="btn ghost small"
                  onClick={() => remove(i)}
                  aria-label={t('form.removeLine', { n: i + 1 })}
                >
                  ×
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div>
        <button type="button" className="btn small" onClick={add}>
          {t('form.addLine')}
        </button>
      </div>
      <InvoiceSums currency={currency} sums={totals} live />
    </section>
  );
}
