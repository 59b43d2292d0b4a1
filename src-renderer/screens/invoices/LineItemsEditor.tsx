/**
 * The invoice's lines: description (and the revenue category it belongs to, when the team has any), quantity, unit,
 * price and VAT rate per row, each row's amount, and the totals below with the VAT of each rate, as the server will
 * compute them (invoice-form.ts). A row is added with the button or Enter in the last rate; a new row starts at the
 * rate lines start with (its category's, else the team's; 0 % under reverse charge). A category chosen sets the
 * row's rate to the category's. A row removed gives its place to the next one.
 */
import { useTranslation } from 'react-i18next';
import type { FieldErrors } from '../../lib/field-errors';
import { formatAmount } from '../../lib/format';
import type { NumberMarks } from '../../lib/parse-number';
import { InvoiceSums } from './InvoiceSums';
import { draftTotals, emptyLine, type InvoiceDraft, type LineDraft } from './invoice-form';

const FIELDS = ['name', 'quantity', 'unit', 'price', 'vat'] as const;
const NUMERIC: ReadonlySet<string> = new Set(['quantity', 'price', 'vat']);

export interface RevenueCategory {
  slug: string;
  name: string;
  taxRate: number | null;
}

export function LineItemsEditor(props: {
  draft: InvoiceDraft;
  errors: FieldErrors;
  marks: NumberMarks;
  /** The team's revenue categories (none: no category select). */
  categories: readonly RevenueCategory[];
  /** The rate (as typed) a line of this category starts with. */
  rateFor: (category: string) => string;
  onChange: (lines: LineDraft[]) => void;
  /** A field was left: its message, if any, is shown now rather than on submit. */
  onLeave?: (field: string) => void;
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
    props.onChange([...lines, emptyLine(props.rateFor(''))]);
    // Focus the new row's description once it is rendered.
    const next = `[data-field="lines.${lines.length}.name"]`;
    setTimeout(() => (document.querySelector(next) as HTMLInputElement | null)?.focus());
  };
  const remove = (i: number) =>
    props.onChange(lines.length === 1 ? [emptyLine(props.rateFor(''))] : lines.filter((_, j) => j !== i));

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
              {t('form.line.vat')}
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
                  <td key={field} className={NUMERIC.has(field) ? 'num' : undefined}>
                    <input
                      className="input"
                      data-field={key}
                      aria-label={t('form.lineField', { field: t(`form.line.${field}`), n: i + 1 })}
                      aria-invalid={Boolean(error)}
                      title={error}
                      inputMode={NUMERIC.has(field) ? 'decimal' : undefined}
                      value={line[field]}
                      onChange={(e) => update(i, { [field]: e.target.value })}
                      onBlur={() => props.onLeave?.(key)}
                      onKeyDown={(e) => {
                        if (e.key === 'Enter' && !e.ctrlKey && !e.metaKey && field === 'vat' && i === lines.length - 1) {
                          e.preventDefault();
                          add();
                        }
                      }}
                      autoComplete="off"
                    />
                    {error ? <span className="error">{error}</span> : null}
                    {field === 'name' && props.categories.length > 0 ? (
                      <select
                        className="select small line-category"
                        aria-label={t('form.lineField', { field: t('form.line.category'), n: i + 1 })}
                        value={line.category}
                        onChange={(e) => update(i, { category: e.target.value, vat: props.rateFor(e.target.value) })}
                      >
                        <option value="">{t('form.line.noCategory')}</option>
                        {props.categories.map((c) => (
                          <option key={c.slug} value={c.slug}>
                            {c.name}
                          </option>
                        ))}
                      </select>
                    ) : null}
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
      <InvoiceSums currency={currency} sums={totals} vatGroups={totals?.vatGroups} live />
    </section>
  );
}
