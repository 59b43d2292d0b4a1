/**
 * The CSV column mapping the preview guessed, adjustable by column number (date, its format, amount, decimal mark,
 * counterparty, flipped signs) and previewed again before anything is imported.
 */
import { useId, useState } from 'react';
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
  const [m, setM] = useState(mapping);
  const id = useId();
  const col = (c: { index: number; header: string | null } | null) => (c ? `${c.header ?? 'column'} (#${c.index + 1})` : 'none');
  const setIndex = (key: 'date' | 'counterparty' | 'reference' | 'balance', value: string) => {
    const n = Number(value) - 1;
    setM({ ...m, [key]: value === '' ? null : { index: n, header: null } });
  };
  const amountColumn = m.amount.kind === 'split' ? m.amount.debit : m.amount.column;
  return (
    <details className="mapping" open={false}>
      <summary>
        Column mapping: date {col(m.date)}, amount {col(amountColumn)}
        {m.amount.kind !== 'signed' ? ` (${m.amount.kind})` : ''}, decimal “{m.decimal}”, {m.dateFormat}
      </summary>
      <div className="mapping-grid">
        <label className="field" htmlFor={`${id}-date`}>
          <span className="label">Date column number</span>
          <input
            id={`${id}-date`}
            className="input"
            type="number"
            min={1}
            value={m.date.index + 1}
            onChange={(e) => setIndex('date', e.target.value)}
          />
        </label>
        <label className="field" htmlFor={`${id}-fmt`}>
          <span className="label">Date format</span>
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
          <label className="field" htmlFor={`${id}-amount`}>
            <span className="label">Amount column number</span>
            <input
              id={`${id}-amount`}
              className="input"
              type="number"
              min={1}
              value={m.amount.column.index + 1}
              onChange={(e) =>
                setM({ ...m, amount: { kind: 'signed', column: { index: Number(e.target.value) - 1, header: null } } })
              }
            />
          </label>
        ) : null}
        <label className="field" htmlFor={`${id}-dec`}>
          <span className="label">Decimal mark</span>
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
        <label className="field" htmlFor={`${id}-cp`}>
          <span className="label">Counterparty column number</span>
          <input
            id={`${id}-cp`}
            className="input"
            type="number"
            min={1}
            value={m.counterparty ? m.counterparty.index + 1 : ''}
            onChange={(e) => setIndex('counterparty', e.target.value)}
          />
        </label>
        <label className="check">
          <input type="checkbox" checked={m.invert} onChange={(e) => setM({ ...m, invert: e.target.checked })} /> Flip every sign
        </label>
      </div>
      <div className="panel-actions">
        <button type="button" className="btn" disabled={busy} onClick={() => onApply(m)}>
          Preview with this mapping
        </button>
      </div>
    </details>
  );
}
