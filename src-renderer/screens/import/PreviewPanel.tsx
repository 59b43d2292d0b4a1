/**
 * What an import would do, before it does it: the file's format, the counts per outcome, the file's statements when
 * it holds several (the `children`), a file imported before, the balance check, the column mapping (adjustable),
 * every row that is not simply new with its reason, and the import button, held back until a balance mismatch or a
 * re-import is accepted, and saying what else is missing (`blockedBy`).
 */
import type { TFunction } from 'i18next';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
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

type PreviewRow = ImportPreview['rows'][number];
type T = TFunction<'import'>;

/** A code the server names a thing by (`link`, `exact_id`) in words, from `import:<group>.<code>`. */
function named(t: T, group: string, code: string): string {
  return t(`${group}.${code}`, { defaultValue: code.replace(/_/g, ' ') });
}

/** Why a row gets its outcome: the server's reason (in its words), how it matched, or its match score. */
function reasonOf(r: PreviewRow, t: T) {
  if (r.reason !== null) return <span lang="en">{r.reason}</span>;
  if (r.match) return t('matchedBy', { how: named(t, 'matches', r.match) });
  return r.score !== null ? t('score', { score: formatNumber(r.score, 2) }) : '';
}

function rowColumns(p: ImportPreview, currencyOf: (statement: number) => string, t: T): Column<PreviewRow>[] {
  const several = p.statements.length > 1;
  const refOf = (r: PreviewRow) => p.statements.find((s) => s.index === r.statement)?.accountRef;
  return [
    ...(several
      ? [{ id: 'statement', header: t('rows.statement'), cell: (r: PreviewRow) => refOf(r) ?? formatNumber(r.statement + 1) }]
      : []),
    { id: 'line', header: t('rows.line'), className: 'num', cell: (r) => formatNumber(r.line) },
    { id: 'date', header: t('rows.date'), className: 'date', cell: (r) => (r.date ? formatDate(r.date) : '—') },
    { id: 'name', header: t('rows.name'), cell: (r) => <div className="cell-text wide">{r.name ?? r.description ?? '—'}</div> },
    {
      id: 'amount',
      header: t('rows.amount'),
      numeric: true,
      className: 'money',
      cell: (r) => (r.amount === null ? '—' : formatAmount(r.amount, currencyOf(r.statement))),
    },
    {
      id: 'outcome',
      header: t('rows.outcome'),
      cell: (r) => <span className={`outcome ${r.outcome}`}>{named(t, 'outcomes', r.outcome)}</span>,
    },
    { id: 'why', header: t('rows.why'), className: 'reason', cell: (r) => reasonOf(r, t) },
  ];
}

export function PreviewPanel(props: {
  preview: ImportPreview;
  /** The currency of a statement's rows (its account's). */
  currencyOf: (statement: number) => string;
  busy: boolean;
  /** What keeps the file from being imported besides the checks here (a statement without an account). */
  blockedBy: string | null;
  onRemap: (m: CsvMapping) => void;
  onCommit: (o: CommitOptions) => void;
  onCancel: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation('import');
  const { preview: p } = props;
  const [saveAs, setSaveAs] = useState('');
  const [acceptMismatch, setAcceptMismatch] = useState(false);
  const [reimport, setReimport] = useState(false);
  const problemRows = p.rows.filter((r) => r.outcome !== 'new');
  const shownRows = [...problemRows, ...p.rows.filter((r) => r.outcome === 'new')].slice(0, 200);
  const blocked =
    props.blockedBy !== null || (p.balance.status === 'mismatch' && !acceptMismatch) || (p.alreadyImported !== null && !reimport);
  // The file's balance check is the first statement's that does not add up, else the first unchecked, else the first.
  const balanceCurrency = props.currencyOf(p.statements.find((s) => s.balance?.status === p.balance.status)?.index ?? 0);
  // A statement's missing account is shown with the statement, in the person's language.
  const warnings = [...p.notes, ...p.warnings.filter((w) => !p.statements.some((s) => s.needs === w))];
  const tiles: [string, number, string][] = [
    [t('tiles.rows'), p.counts.rows, ''],
    [t('tiles.new'), p.counts.new, 'ok'],
    [t('tiles.duplicates'), p.counts.duplicate, ''],
    [t('tiles.link'), p.counts.link, 'info'],
    [t('tiles.review'), p.counts.review, 'warn'],
    [t('tiles.rejected'), p.counts.rejected, p.counts.rejected ? 'bad' : ''],
  ];
  return (
    <section className="preview" aria-label={t('preview')}>
      <h2>
        {p.fileName ?? t('bankFile')}{' '}
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
      {props.children}
      {p.alreadyImported ? (
        <div className="banner warn" role="status">
          <div className="grow">
            <strong>{t('importedBefore')}</strong> ({formatDateTime(p.alreadyImported.createdAt)}).
            <label className="check">
              <input type="checkbox" checked={reimport} onChange={(e) => setReimport(e.target.checked)} /> {t('importAgain')}
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
            {t('balance.title')}{' '}
            {p.balance.status === 'ok'
              ? t('balance.ok')
              : p.balance.status === 'mismatch'
                ? t('balance.mismatch')
                : t('balance.unchecked')}
          </strong>
          <small>
            {p.balance.message ? <span lang="en">{p.balance.message}</span> : null}
            {p.balance.difference !== null
              ? ` ${t('balance.difference', { amount: formatAmount(p.balance.difference, balanceCurrency) })}`
              : ''}
          </small>
          {p.balance.status === 'mismatch' ? (
            <label className="check">
              <input type="checkbox" checked={acceptMismatch} onChange={(e) => setAcceptMismatch(e.target.checked)} />{' '}
              {t('balance.importAnyway')}
            </label>
          ) : null}
        </div>
      </div>
      {warnings.length ? (
        <ul className="warnings" lang="en">
          {warnings.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
      {p.mapping ? <MappingEditor mapping={p.mapping} columns={p.columns} busy={props.busy} onApply={props.onRemap} /> : null}
      <DataTable
        label={t('rows.label')}
        className="compact"
        wrap="preview-rows"
        columns={rowColumns(p, props.currencyOf, t)}
        rows={shownRows}
        rowKey={(r) => `${r.statement}:${r.index}`}
        rowProps={(r) => (r.outcome === 'rejected' ? { className: 'row-bad' } : {})}
      />
      {p.rows.length < p.counts.rows ? (
        <p className="faint small">{t('rows.showing', { shown: formatNumber(shownRows.length), count: p.counts.rows })}</p>
      ) : null}
      <div className="panel-actions commit-row">
        {p.mapping ? (
          <label className="field">
            <span className="label">{t('saveMapping')}</span>
            <input className="input" value={saveAs} onChange={(e) => setSaveAs(e.target.value)} maxLength={100} />
          </label>
        ) : null}
        <span className="spacer" />
        <button type="button" className="btn" onClick={props.onCancel} disabled={props.busy}>
          {t('common:cancel')}
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
          {props.blockedBy ?? t('importRows', { count: p.counts.new + p.counts.link + p.counts.review })}
        </button>
      </div>
    </section>
  );
}
