/**
 * What an import would do, before it does it: the file's format, the counts per outcome, a file imported before, the
 * balance check, the column mapping (adjustable), every row that is not simply new with its reason, and the import
 * button, held back until a balance mismatch or a re-import is accepted.
 */
import { useState } from 'react';
import type { ImportPreview } from '../../../src-shared/contract/import';
import type { CsvMapping } from '../../../src-shared/contract/import-mapping';
import type { Column } from '../../components/table/columns';
import { DataTable } from '../../components/table/DataTable';
import { formatAmount, formatDate, formatDateTime, formatNumber } from '../../lib/format';
import { MappingEditor } from './MappingEditor';

export interface CommitOptions {
  saveMappingAs?: string;
  acceptBalanceMismatch?: boolean;
  allowReimport?: boolean;
}

const OUTCOME_LABELS: Record<string, string> = {
  new: 'New',
  duplicate: 'Duplicate',
  link: 'Matches a hand-entered one',
  review: 'Held for review',
  rejected: 'Rejected',
  created: 'Created',
  linked: 'Linked',
};

type PreviewRow = ImportPreview['rows'][number];

/** Why a row gets its outcome: the server's reason, how it matched, or its match score. */
function reasonOf(r: PreviewRow): string {
  if (r.reason !== null) return r.reason;
  if (r.match) return `matched by ${r.match.replace('_', ' ')}`;
  return r.score !== null ? `score ${formatNumber(r.score, 2)}` : '';
}

function rowColumns(currency: string): Column<PreviewRow>[] {
  return [
    { id: 'line', header: 'Line', className: 'num', cell: (r) => r.line },
    { id: 'date', header: 'Date', className: 'date', cell: (r) => (r.date ? formatDate(r.date) : '—') },
    { id: 'name', header: 'Name', cell: (r) => <div className="cell-text wide">{r.name ?? r.description ?? '—'}</div> },
    {
      id: 'amount',
      header: 'Amount',
      numeric: true,
      className: 'money',
      cell: (r) => (r.amount === null ? '—' : formatAmount(r.amount, currency)),
    },
    {
      id: 'outcome',
      header: 'Outcome',
      cell: (r) => <span className={`outcome ${r.outcome}`}>{OUTCOME_LABELS[r.outcome] ?? r.outcome}</span>,
    },
    { id: 'why', header: 'Why', className: 'reason', cell: reasonOf },
  ];
}

export function PreviewPanel(props: {
  preview: ImportPreview;
  currency: string;
  busy: boolean;
  onRemap: (m: CsvMapping) => void;
  onCommit: (o: CommitOptions) => void;
  onCancel: () => void;
}) {
  const { preview: p } = props;
  const [saveAs, setSaveAs] = useState('');
  const [acceptMismatch, setAcceptMismatch] = useState(false);
  const [reimport, setReimport] = useState(false);
  const problemRows = p.rows.filter((r) => r.outcome !== 'new');
  const shownRows = [...problemRows, ...p.rows.filter((r) => r.outcome === 'new')].slice(0, 200);
  const blocked = (p.balance.status === 'mismatch' && !acceptMismatch) || (p.alreadyImported !== null && !reimport);
  const tiles: [string, number, string][] = [
    ['Rows', p.counts.rows, ''],
    ['New', p.counts.new, 'ok'],
    ['Duplicates', p.counts.duplicate, ''],
    ['Match hand-entered', p.counts.link, 'info'],
    ['Held for review', p.counts.review, 'warn'],
    ['Rejected', p.counts.rejected, p.counts.rejected ? 'bad' : ''],
  ];
  return (
    <section className="preview" aria-label="Preview">
      <h2>
        {p.fileName ?? 'Bank file'}{' '}
        <span className="faint small">
          · {p.format.toUpperCase()} · {p.encoding}
        </span>
      </h2>
      <dl className="tiles">
        {tiles.map(([label, n, tone]) => (
          <div key={label} className={`tile ${tone}`}>
            <dt>{label}</dt>
            <dd>{formatNumber(n)}</dd>
          </div>
        ))}
      </dl>
      {p.alreadyImported ? (
        <div className="banner warn" role="status">
          <div className="grow">
            <strong>This file was imported before</strong> ({formatDateTime(p.alreadyImported.createdAt)}).
            <label className="check">
              <input type="checkbox" checked={reimport} onChange={(e) => setReimport(e.target.checked)} /> Import it again anyway
            </label>
          </div>
        </div>
      ) : null}
      <div
        className={`banner ${p.balance.status === 'mismatch' ? 'error' : p.balance.status === 'ok' ? 'info' : 'warn'}`}
        role="status"
      >
        <div className="grow">
          <strong>
            Balance check:{' '}
            {p.balance.status === 'ok'
              ? 'the file’s balances add up'
              : p.balance.status === 'mismatch'
                ? 'the balances do not add up'
                : 'not checked'}
          </strong>
          <small>
            {p.balance.message}
            {p.balance.difference !== null ? ` Difference ${formatAmount(p.balance.difference, props.currency)}.` : ''}
          </small>
          {p.balance.status === 'mismatch' ? (
            <label className="check">
              <input type="checkbox" checked={acceptMismatch} onChange={(e) => setAcceptMismatch(e.target.checked)} /> Import
              anyway (the batch keeps a warning)
            </label>
          ) : null}
        </div>
      </div>
      {[...p.notes, ...p.warnings].length ? (
        <ul className="warnings">
          {[...p.notes, ...p.warnings].map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
      {p.mapping ? <MappingEditor mapping={p.mapping} busy={props.busy} onApply={props.onRemap} /> : null}
      <DataTable
        label="Rows of the file"
        className="compact"
        wrap="preview-rows"
        columns={rowColumns(props.currency)}
        rows={shownRows}
        rowKey={(r) => r.index}
        rowProps={(r) => (r.outcome === 'rejected' ? { className: 'row-bad' } : {})}
      />
      {p.rows.length < p.counts.rows ? (
        <p className="faint small">
          Showing {formatNumber(shownRows.length)} of {formatNumber(p.counts.rows)} rows: every row that is not simply new, then
          the first new ones.
        </p>
      ) : null}
      <div className="panel-actions commit-row">
        {p.mapping ? (
          <label className="field">
            <span className="label">Save this mapping as (optional)</span>
            <input className="input" value={saveAs} onChange={(e) => setSaveAs(e.target.value)} maxLength={100} />
          </label>
        ) : null}
        <span className="spacer" />
        <button type="button" className="btn" onClick={props.onCancel} disabled={props.busy}>
          Cancel
        </button>
        <button
          type="button"
          className="btn primary"
          disabled={props.busy || blocked}
          onClick={() =>
            props.onCommit({
              saveMappingAs: saveAs.trim() || undefined,
              acceptBalanceMismatch: acceptMismatch || undefined,
              allowReimport: reimport || undefined,
            })
          }
        >
          Import {formatNumber(p.counts.new + p.counts.link + p.counts.review)} rows
        </button>
      </div>
    </section>
  );
}
