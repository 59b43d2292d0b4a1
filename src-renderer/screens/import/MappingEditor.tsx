/**
 * The CSV column mapping the preview guessed, adjustable by column number (date, its format, amount, decimal mark,
 * counterparty, flipped signs) and previewed again before anything is imported.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CsvMapping } from '../../../src-shared/contract/import-mapping';

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
  busy,
  onApply,
}: {
  mapping: CsvMapping;
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
        <ColumnNumber
          label={t('mapping.dateColumn')}
          column={m.date}
          onChange={(index) => index !== null && setM({ ...m, date: { index, header: null } })}
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
          <ColumnNumber
            label={t('mapping.amountColumn')}
            column={m.amount.column}
            onChange={(index) => index !== null && setM({ ...m, amount: { kind: 'signed', column: { index, header: null } } })}
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
        <ColumnNumber
          label={t('mapping.counterpartyColumn')}
          column={m.counterparty}
          onChange={(index) => setM({ ...m, counterparty: index === null ? null : { index, header: null } })}
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

/** A column chosen by its number, counted from 1 as people count (the mapping counts from 0); empty means none. */
function ColumnNumber(props: { label: string; column: { index: number } | null; onChange: (index: number | null) => void }) {
  const id = useId();
  return (
    <label className="field" htmlFor={id}>
      <span className="label">{props.label}</span>
      <input
        id={id}
        className="input"
        type="number"
        min={1}
        value={props.column ? props.column.index + 1 : ''}
        onChange={(e) => props.onChange(e.target.value === '' ? null : Number(e.target.value) - 1)}
      />
    </label>
  );
}
