/**
 * The CSV column mapping the preview guessed, adjustable (date, its format, amount, decimal mark, counterparty,
 * flipped signs) and previewed again before anything is imported. A column is chosen by its header name with a few
 * of its values beside it ("Betrag — -84,00 · 3.570,00"), as the file shows it, not by its number.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { PreviewColumn } from '../../../src-shared/contract/import';
import type { CsvMapping } from '../../../src-shared/contract/import-mapping';

type FileColumn = z.infer<typeof PreviewColumn>;

const DATE_FORMAT_CHOICES = [
  'yyyy-MM-dd',
  'dd.MM.yyyy',
  'dd/MM/yyyy',
  'MM/dd/yyyy',
  'dd-MM-yyyy',
  'yyyyMMdd',
  'dd.MM.yy',
  'MM/dd/yy',
];

export function MappingEditor({
  mapping,
  columns,
  busy,
  onApply,
}: {
  mapping: CsvMapping;
  /** The file's columns with their headers and sample values. */
  columns: readonly FileColumn[];
  busy: boolean;
  onApply: (m: CsvMapping) => void;
}) {
  const { t } = useTranslation('import');
  const [m, setM] = useState(mapping);
  const id = useId();
  const col = (c: { index: number; header: string | null } | null) =>
    c ? `${c.header ?? t('mapping.column')} (#${c.index + 1})` : t('mapping.none');
  const amountColumn = m.amount.kind === 'split' ? m.amount.debit : m.amount.column;
  return (
    <details className="mapping" open={false}>
      <summary>
        {t('mapping.summary', {
          date: col(m.date),
          amount: `${col(amountColumn)}${m.amount.kind !== 'signed' ? ` (${t(`mapping.kinds.${m.amount.kind}`)})` : ''}`,
          decimal: m.decimal,
          format: m.dateFormat,
        })}
      </summary>
      <div className="mapping-grid">
        <ColumnChoice
          label={t('mapping.dateColumn')}
          columns={columns}
          column={m.date}
          onChange={(c) => c && setM({ ...m, date: c })}
        />
        <label className="field" htmlFor={`${id}-fmt`}>
          <span className="label">{t('mapping.dateFormat')}</span>
          <select
            id={`${id}-fmt`}
            className="select"
            value={m.dateFormat}
            onChange={(e) => setM({ ...m, dateFormat: e.target.value as CsvMapping['dateFormat'] })}
          >
            {[...new Set([m.dateFormat, ...DATE_FORMAT_CHOICES])].map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </label>
        {m.amount.kind === 'signed' ? (
          <ColumnChoice
            label={t('mapping.amountColumn')}
            columns={columns}
            column={m.amount.column}
            onChange={(c) => c && setM({ ...m, amount: { kind: 'signed', column: c } })}
          />
        ) : null}
        <label className="field" htmlFor={`${id}-dec`}>
          <span className="label">{t('mapping.decimal')}</span>
          <select
            id={`${id}-dec`}
            className="select"
            value={m.decimal}
            onChange={(e) => setM({ ...m, decimal: e.target.value as '.' | ',' })}
          >
            <option value=".">. (1,234.56)</option>
            <option value=",">, (1.234,56)</option>
          </select>
        </label>
        <ColumnChoice
          label={t('mapping.counterpartyColumn')}
          columns={columns}
          column={m.counterparty}
          optional
          onChange={(c) => setM({ ...m, counterparty: c })}
        />
        <label className="check">
          <input type="checkbox" checked={m.invert} onChange={(e) => setM({ ...m, invert: e.target.checked })} />{' '}
          {t('mapping.invert')}
        </label>
      </div>
      <div className="panel-actions">
        <button type="button" className="btn" disabled={busy} onClick={() => onApply(m)}>
          {t('mapping.apply')}
        </button>
      </div>
    </details>
  );
}

/**
 * A column chosen by its header and a few of its values (the preview's columns); "#3" where the file has no header.
 * `optional`: "none" can be chosen.
 */
function ColumnChoice(props: {
  label: string;
  columns: readonly FileColumn[];
  column: { index: number } | null;
  optional?: boolean;
  onChange: (column: { index: number; header: string | null } | null) => void;
}) {
  const { t } = useTranslation('import');
  const id = useId();
  const name = (c: FileColumn) => c.header ?? t('mapping.columnNumber', { n: c.index + 1 });
  return (
    <label className="field" htmlFor={id}>
      <span className="label">{props.label}</span>
      <select
        id={id}
        className="select"
        value={props.column ? String(props.column.index) : ''}
        onChange={(e) => {
          const c = props.columns.find((x) => String(x.index) === e.target.value);
          props.onChange(c ? { index: c.index, header: c.header } : null);
        }}
      >
        {props.optional || !props.column ? <option value="">{t('mapping.none')}</option> : null}
        {props.columns.map((c) => (
          <option key={c.index} value={String(c.index)}>
            {c.samples.length ? `${name(c)} — ${c.samples.slice(0, 2).join(' · ')}` : name(c)}
          </option>
        ))}
      </select>
    </label>
  );
}
