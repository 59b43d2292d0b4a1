/**
 * Import a bank file: drop or pick it, see the preview (format, the CSV column mapping — adjustable and previewed
 * again —, new / duplicate / matched-to-hand-entered / held-for-review / rejected counts, every row that is not
 * simply new with its reason, the balance check), commit it with a progress bar; the review queue for uncertain
 * matches; the batch list with undo; reconciliation against a statement balance with the difference and its
 * candidate lines.
 */
import { type DragEvent, useId, useRef, useState } from 'react';
import { ApiClientError } from '../../../src-shared/api-client';
import { bankAccountRoutes } from '../../../src-shared/contract/bank-accounts';
import { type ImportPreview, importRoutes } from '../../../src-shared/contract/import';
import type { CsvMapping } from '../../../src-shared/contract/import-mapping';
import { transactionRoutes } from '../../../src-shared/contract/transactions';
import { ConfirmDialog, ErrorBanner } from '../../components/ui';
import { useCursorList } from '../../data/use-cursor-list';
import { useRead, useRecord } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { formatAmount, formatDate, formatDateTime, formatNumber } from '../../lib/format';
import { useToasts } from '../../stores/toasts';
import { Reconcile } from './Reconcile';

type Phase = { step: 'idle' } | { step: 'reading' | 'previewing' | 'committing'; progress: number | null; label: string };

const OUTCOME_LABELS: Record<string, string> = {
  new: 'New',
  duplicate: 'Duplicate',
  link: 'Matches a hand-entered one',
  review: 'Held for review',
  rejected: 'Rejected',
  created: 'Created',
  linked: 'Linked',
};

/** The file's bytes as base64, reporting how much was read. */
function readBase64(file: File, onProgress: (share: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.readAsDataURL(file);
  });
}

export function ImportScreen() {
  const accounts = useRead(bankAccountRoutes.list, { query: {} });
  const [accountId, setAccountId] = useState('');
  const [phase, setPhase] = useState<Phase>({ step: 'idle' });
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [dragging, setDragging] = useState(false);
  const upload = useWrite(importRoutes.upload);
  const again = useWrite(importRoutes.preview);
  const commit = useWrite(importRoutes.commit);
  const toast = useToasts();
  const fileRef = useRef<HTMLInputElement>(null);
  const accountList = accounts.data?.data ?? [];
  const account = accountId || accountList[0]?.id || '';
  const currency = accountList.find((a) => a.id === (preview?.bankAccountId ?? account))?.currency ?? 'EUR';

  async function take(file: File) {
    if (!account) {
      setFailure(new Error('Choose the account this file is a statement of first.'));
      return;
    }
    setFailure(null);
    setPreview(null);
    try {
      setPhase({ step: 'reading', progress: 0, label: `Reading ${file.name}` });
      const content = await readBase64(file, (p) => setPhase({ step: 'reading', progress: p, label: `Reading ${file.name}` }));
      setPhase({ step: 'previewing', progress: null, label: 'Checking every row against your transactions' });
      setPreview(await upload.mutateAsync({ query: { bankAccountId: account }, body: { fileName: file.name, content } }));
    } catch (err) {
      setFailure(err);
    } finally {
      setPhase({ step: 'idle' });
    }
  }

  async function previewAgain(mapping: CsvMapping) {
    if (!preview) return;
    setPhase({ step: 'previewing', progress: null, label: 'Previewing with the new mapping' });
    setFailure(null);
    try {
      setPreview(await again.mutateAsync({ params: { id: preview.uploadId }, body: { mapping } }));
    } catch (err) {
      setFailure(err);
    } finally {
      setPhase({ step: 'idle' });
    }
  }

  async function doCommit(options: { saveMappingAs?: string; acceptBalanceMismatch?: boolean; allowReimport?: boolean }) {
    if (!preview) return;
    setPhase({ step: 'committing', progress: null, label: `Importing ${formatNumber(preview.counts.rows)} rows` });
    setFailure(null);
    try {
      const result = await commit.mutateAsync({
        params: { id: preview.uploadId },
        body: { mapping: preview.mapping ?? undefined, ...options },
      });
      const c = result.batch.counts;
      toast.show(
        `Imported ${preview.fileName ?? 'the file'}: ${formatNumber(c.created)} new, ${formatNumber(c.linked)} matched, ${formatNumber(c.duplicate)} duplicates skipped, ${formatNumber(c.review)} to review`,
      );
      setPreview(null);
    } catch (err) {
      setFailure(err);
    } finally {
      setPhase({ step: 'idle' });
    }
  }

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const file = e.dataTransfer.files[0];
    if (file) void take(file);
  };

  return (
    <div className="page import-page">
      <header className="page-header">
        <div>
          <h1>Import</h1>
          <p>Bank files in, duplicates out: CSV, OFX/QFX, camt.053 and MT940. Nothing is written until you import.</p>
        </div>
      </header>

      <section className="card import-card" aria-label="Import a bank file">
        <div className="import-top">
          <label className="filter wide">
            <span>Account</span>
            <select
              className="select"
              value={account}
              onChange={(e) => setAccountId(e.target.value)}
              disabled={phase.step !== 'idle'}
            >
              {accountList.length === 0 ? <option value="">No bank account yet</option> : null}
              {accountList.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name} ({a.currency})
                </option>
              ))}
            </select>
          </label>
          {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping a file adds to the keyboard-reachable "Choose a file…" button inside */}
          <div
            className={`dropzone ${dragging ? 'over' : ''}`}
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
          >
            <span>Drop a bank file here, or</span>
            <button
              type="button"
              className="btn"
              onClick={() => fileRef.current?.click()}
              disabled={phase.step !== 'idle' || !account}
            >
              Choose a file…
            </button>
            <input
              ref={fileRef}
              type="file"
              className="sr-only"
              aria-label="Bank file"
              accept=".csv,.txt,.ofx,.qfx,.xml,.sta,.mt940"
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file) void take(file);
              }}
            />
          </div>
        </div>
        <div className="progress-slot">
          {phase.step !== 'idle' ? (
            <div className="progress-wrap">
              <div
                className={`progress ${phase.progress === null ? 'indeterminate' : ''}`}
                role="progressbar"
                aria-label={phase.label}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={phase.progress === null ? undefined : Math.round(phase.progress * 100)}
              >
                <span style={{ width: phase.progress === null ? undefined : `${Math.round(phase.progress * 100)}%` }} />
              </div>
              <span className="faint small">{phase.label}…</span>
            </div>
          ) : (
            <span className="faint small">
              The preview writes nothing: you see every row's outcome first, and an import can be undone.
            </span>
          )}
        </div>
        {failure ? <ErrorBanner error={failure} /> : null}
        {preview ? (
          <PreviewPanel
            preview={preview}
            currency={currency}
            busy={phase.step !== 'idle'}
            onRemap={(m) => void previewAgain(m)}
            onCommit={(o) => void doCommit(o)}
            onCancel={() => setPreview(null)}
          />
        ) : null}
      </section>

      <ReviewQueue />
      <Batches />
      <Reconcile accounts={accountList} />
    </div>
  );
}

function PreviewPanel(props: {
  preview: ImportPreview;
  currency: string;
  busy: boolean;
  onRemap: (m: CsvMapping) => void;
  onCommit: (o: { saveMappingAs?: string; acceptBalanceMismatch?: boolean; allowReimport?: boolean }) => void;
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
      <div className="table-wrap preview-rows">
        <table className="data compact" aria-label="Rows of the file">
          <thead>
            <tr>
              <th scope="col">
                <span>Line</span>
              </th>
              <th scope="col">
                <span>Date</span>
              </th>
              <th scope="col">
                <span>Name</span>
              </th>
              <th scope="col" className="num">
                <span>Amount</span>
              </th>
              <th scope="col">
                <span>Outcome</span>
              </th>
              <th scope="col">
                <span>Why</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shownRows.map((r) => (
              <tr key={r.index} className={r.outcome === 'rejected' ? 'row-bad' : ''}>
                <td className="num">{r.line}</td>
                <td className="date">{r.date ? formatDate(r.date) : '—'}</td>
                <td>
                  <div className="cell-text wide">{r.name ?? r.description ?? '—'}</div>
                </td>
                <td className="money">{r.amount === null ? '—' : formatAmount(r.amount, props.currency)}</td>
                <td>
                  <span className={`outcome ${r.outcome}`}>{OUTCOME_LABELS[r.outcome] ?? r.outcome}</span>
                </td>
                <td className="reason">
                  {r.reason ??
                    (r.match
                      ? `matched by ${r.match.replace('_', ' ')}`
                      : r.score !== null
                        ? `score ${formatNumber(r.score, 2)}`
                        : '')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
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

function MappingEditor({ mapping, busy, onApply }: { mapping: CsvMapping; busy: boolean; onApply: (m: CsvMapping) => void }) {
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

function CandidateName({ id }: { id: string }) {
  const t = useRecord(transactionRoutes.get, { id });
  return (
    <>
      {t.data ? `${t.data.name}, ${formatDate(t.data.date.slice(0, 10))}, ${formatAmount(t.data.amount, t.data.currency)}` : '…'}
    </>
  );
}

function ReviewQueue() {
  const queue = useCursorList(importRoutes.listReview, { status: 'open', pageSize: 50 });
  const link = useWrite(importRoutes.linkReview);
  const create = useWrite(importRoutes.createReview);
  const toast = useToasts();
  return (
    <section className="card" aria-label="Review queue">
      <div className="chart-head padded">
        <h2>Review queue</h2>
        <span className="faint small">Bank rows whose match with a hand-entered transaction was uncertain.</span>
      </div>
      {queue.error ? <ErrorBanner error={queue.error} onRetry={queue.refetch} /> : null}
      {queue.items.length === 0 && !queue.isLoading ? (
        <p className="faint padded">Nothing to review. Uncertain matches from imports wait here.</p>
      ) : (
        <ul className="review-list">
          {queue.items.map((item) => (
            <li key={item.id} className="review-item">
              <div className="grow">
                <strong>{item.name}</strong> · {formatDate(item.date)} · {formatAmount(item.amount, item.currency)}
                <div className="cell-sub">
                  Line {item.line} of the file{item.description ? ` · ${item.description}` : ''}
                </div>
              </div>
              <div className="review-actions">
                {item.candidates.map((c) => (
                  <button
                    key={c.transactionId}
                    type="button"
                    className="btn small"
                    onClick={() =>
                      link
                        .mutateAsync({ params: { id: item.id }, body: { transactionId: c.transactionId } })
                        .then(() => toast.show('Linked to the hand-entered transaction'))
                        .catch((err) => toast.error(err, 'Could not link'))
                    }
                  >
                    Link to <CandidateName id={c.transactionId} /> ({formatNumber(c.score * 100)} %)
                  </button>
                ))}
                <button
                  type="button"
                  className="btn small"
                  onClick={() =>
                    create
                      .mutateAsync({ params: { id: item.id } })
                      .then(() => toast.show('Created as a transaction of its own'))
                      .catch((err) => toast.error(err, 'Could not create'))
                  }
                >
                  Create as new
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Batches() {
  const batches = useCursorList(importRoutes.listBatches, { pageSize: 20 });
  const accounts = useRead(bankAccountRoutes.list, { query: {} });
  const undo = useWrite(importRoutes.undoBatch);
  const toast = useToasts();
  const [confirm, setConfirm] = useState<{ id: string; name: string; created: number } | null>(null);
  const accountName = (id: string) => accounts.data?.data.find((a) => a.id === id)?.name ?? '—';
  return (
    <section className="card" aria-label="Imports">
      <div className="chart-head padded">
        <h2>Imports</h2>
        <span className="faint small">Every file imported, newest first. Undo removes what an import created.</span>
      </div>
      {batches.error ? <ErrorBanner error={batches.error} onRetry={batches.refetch} /> : null}
      {batches.items.length === 0 && !batches.isLoading ? (
        <p className="faint padded">No file imported yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="data compact" aria-label="Import batches">
            <thead>
              <tr>
                <th scope="col">
                  <span>File</span>
                </th>
                <th scope="col">
                  <span>Account</span>
                </th>
                <th scope="col">
                  <span>Imported</span>
                </th>
                <th scope="col" className="num">
                  <span>New</span>
                </th>
                <th scope="col" className="num">
                  <span>Matched</span>
                </th>
                <th scope="col" className="num">
                  <span>Duplicates</span>
                </th>
                <th scope="col" className="num">
                  <span>Review</span>
                </th>
                <th scope="col">
                  <span>Status</span>
                </th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {batches.items.map((b) => (
                <tr key={b.id} data-batch-id={b.id}>
                  <td>
                    <div className="cell-text wide">{b.fileName ?? b.format}</div>
                  </td>
                  <td>{accountName(b.bankAccountId)}</td>
                  <td className="date">{formatDateTime(b.createdAt)}</td>
                  <td className="num">{formatNumber(b.counts.created)}</td>
                  <td className="num">{formatNumber(b.counts.linked)}</td>
                  <td className="num">{formatNumber(b.counts.duplicate)}</td>
                  <td className="num">{formatNumber(b.counts.review)}</td>
                  <td>
                    {b.status === 'undone' ? <span className="faint">Undone {formatDateTime(b.undoneAt)}</span> : 'Imported'}
                  </td>
                  <td className="num">
                    {b.status === 'committed' ? (
                      <button
                        type="button"
                        className="btn small"
                        onClick={() => setConfirm({ id: b.id, name: b.fileName ?? 'this import', created: b.counts.created })}
                      >
                        Undo<span className="sr-only"> {b.fileName}</span>
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {confirm ? (
        <ConfirmDialog
          title={`Undo the import of ${confirm.name}?`}
          body={
            <p>
              The {formatNumber(confirm.created)} transactions it created are removed and the hand-entered ones it matched get
              their own facts back.
            </p>
          }
          confirmLabel="Undo import"
          danger
          busy={undo.isPending}
          onCancel={() => setConfirm(null)}
          onConfirm={() =>
            undo
              .mutateAsync({ params: { id: confirm.id } })
              .then(() => toast.show(`Undone: ${confirm.name}`))
              .catch((err) =>
                toast.error(
                  err,
                  err instanceof ApiClientError && err.status === 409 ? 'It cannot be undone' : 'Could not undo the import',
                ),
              )
              .finally(() => setConfirm(null))
          }
        />
      ) : null}
    </section>
  );
}
