/**
 * The detail panel of one transaction: every field of the detailed record, grouped; the category, tags, note and
 * review flags editable; the splits editor (parts must sum exactly to the amount, checked in minor units before the
 * server checks again); the attachments; and each field's provenance (which person, rule or import set it last).
 */
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { ApiClientError } from '../../../src-shared/api-client';
import type { TransactionCategory } from '../../../src-shared/contract/categories';
import { type Transaction, transactionRoutes } from '../../../src-shared/contract/transactions';
import { toMajor, toMinor } from '../../../src-shared/money';
import { DataTable } from '../../components/table/DataTable';
import { ErrorBanner } from '../../components/ui';
import { useRecord } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { FORM_KEY, fieldErrorsFrom } from '../../lib/field-errors';
import { formatAmount, formatDate, formatDateTime } from '../../lib/format';
import { useToasts } from '../../stores/toasts';
import { STATE_LABELS } from './filters';

interface SplitDraft {
  key: number;
  amount: string;
  categorySlug: string;
  note: string;
}

/** The remainder (minor units) the parts leave of the amount; null while a part is not a number. */
export function splitRemainder(amountMajor: number, currency: string, parts: readonly { amount: string }[]): number | null {
  let sum = 0;
  for (const p of parts) {
    const n = Number(p.amount.replace(',', '.'));
    if (p.amount.trim() === '' || !Number.isFinite(n)) return null;
    sum += toMinor(n, currency);
  }
  return toMinor(amountMajor, currency) - sum;
}

const SOURCE_LABEL: Record<string, string> = {
  user: 'a person',
  import: 'an import',
  rule: 'a rule',
  workflow: 'a workflow',
  sync: 'sync',
  system: 'the app',
};

export function TransactionPanel(props: {
  id: string;
  focus?: 'splits' | 'note';
  categories: readonly TransactionCategory[];
  tags: readonly { id: string; name: string }[];
  onClose: () => void;
}) {
  const record = useRecord(transactionRoutes.get, { id: props.id });
  const t = record.data;
  const titleId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!props.focus) closeRef.current?.focus();
  }, [props.focus]);
  // Esc closes the panel even when focus fell out of it (a button disabled while saving drops focus to the page).
  const { onClose } = props;
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      const target = e.target as HTMLElement;
      if (target.closest('.tx-panel') || target === document.body) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <>
      <div className="overlay" onClick={props.onClose} aria-hidden="true" />
      <aside className="drawer tx-panel" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <div className="drawer-header">
          <h2 id={titleId} className="ellipsis">
            {t ? t.name : 'Transaction'}
          </h2>
          <button ref={closeRef} type="button" className="btn ghost" onClick={props.onClose}>
            Close <kbd>Esc</kbd>
          </button>
        </div>
        <div className="drawer-body">
          {record.error ? <ErrorBanner error={record.error} onRetry={() => void record.refetch()} /> : null}
          {!t ? (
            <div className="panel-skeleton" aria-busy="true">
              {[0, 1, 2, 3, 4].map((i) => (
                <span key={i} className="bone" />
              ))}
            </div>
          ) : (
            <PanelBody t={t} focus={props.focus} categories={props.categories} tags={props.tags} />
          )}
        </div>
      </aside>
    </>
  );
}

function PanelBody({
  t,
  focus,
  categories,
  tags,
}: {
  t: Transaction;
  focus?: 'splits' | 'note';
  categories: readonly TransactionCategory[];
  tags: readonly { id: string; name: string }[];
}) {
  const update = useWrite(transactionRoutes.update);
  const toast = useToasts();
  const [note, setNote] = useState(t.note ?? '');
  const noteRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (focus === 'note') noteRef.current?.focus();
  }, [focus]);

  async function patch(body: Parameters<typeof update.mutateAsync>[0]['body'], done: string) {
    try {
      await update.mutateAsync({ params: { id: t.id }, body });
      toast.show(done);
    } catch (err) {
      toast.error(err, 'Could not save');
    }
  }

  const tagIds = new Set((t.tags ?? []).map((x) => x.id));
  const sourceOf = (field: string) => {
    const s = t.fieldSources[field];
    return s
      ? `${SOURCE_LABEL[s.source] ?? s.source}${s.sourceId ? ` (${s.sourceId.slice(0, 8)})` : ''}, ${formatDateTime(s.setAt)}`
      : null;
  };

  return (
    <>
      <section className="form-section">
        <div className="tx-amount">
          <span className={`money big ${t.amount < 0 ? 'out' : 'in'}`}>{formatAmount(t.amount, t.currency)}</span>
          <span className={`state-pill ${t.reviewState}`}>{STATE_LABELS[t.reviewState]}</span>
        </div>
        <dl className="facts tight">
          <dt>Date</dt>
          <dd>{formatDate(t.date.slice(0, 10))}</dd>
          <dt>Account</dt>
          <dd>
            {t.account.name} <span className="faint">({t.account.currency})</span>
          </dd>
          <dt>Counterparty</dt>
          <dd>{t.counterpartyName ?? '—'}</dd>
          <dt>Merchant</dt>
          <dd>{t.merchantName ?? '—'}</dd>
          <dt>Description</dt>
          <dd>{t.description ?? '—'}</dd>
          <dt>Method</dt>
          <dd>{t.method}</dd>
          <dt>Status</dt>
          <dd>{t.status}</dd>
          <dt>Balance after</dt>
          <dd>{formatAmount(t.balance, t.currency)}</dd>
          <dt>In base currency</dt>
          <dd>{t.baseAmount === null ? '— (no rate for that day)' : formatAmount(t.baseAmount, t.baseCurrency)}</dd>
          <dt>Tax</dt>
          <dd>
            {t.taxAmount === null ? '—' : formatAmount(t.taxAmount, t.currency)}
            {t.taxRate !== null ? ` at ${t.taxRate} %` : ''}
            {t.taxType ? ` (${t.taxType})` : ''}
            {t.taxOverridden ? <span className="faint"> · set on the transaction</span> : null}
          </dd>
          <dt>Reviewed</dt>
          <dd>{t.reviewedAt ? formatDateTime(t.reviewedAt) : 'Not yet'}</dd>
          <dt>Reconciled</dt>
          <dd>{t.reconciledAt ? formatDateTime(t.reconciledAt) : 'No'}</dd>
          <dt>Receipt</dt>
          <dd>{t.isFulfilled ? 'Fulfilled' : 'Missing'}</dd>
          <dt>Internal transfer</dt>
          <dd>{t.internal ? 'Yes' : 'No'}</dd>
          <dt>Recurring</dt>
          <dd>{t.recurring ? `Yes${t.frequency ? `, ${t.frequency}` : ''}` : 'No'}</dd>
          <dt>Kept by hand</dt>
          <dd>{t.manual ? 'Yes (manual transaction)' : 'No (bank line)'}</dd>
          <dt>Assignee</dt>
          <dd>{t.assignedId ?? '—'}</dd>
          <dt>Details complete</dt>
          <dd>{t.metadataCompleted ? 'Yes' : 'Not yet (enrichment pending)'}</dd>
          <dt>Team notified</dt>
          <dd>{t.notified === null ? '—' : t.notified ? 'Yes' : 'No'}</dd>
          <dt>Reference</dt>
          <dd>
            <code>{t.internalId}</code>
          </dd>
          <dt>Created</dt>
          <dd>{formatDateTime(t.createdAt)}</dd>
          <dt>Updated</dt>
          <dd>{formatDateTime(t.updatedAt)}</dd>
        </dl>
      </section>

      <section className="form-section">
        <h3>Category and tags</h3>
        <label className="field">
          <span className="label">Category</span>
          <select
            className="select"
            value={t.category?.slug ?? ''}
            onChange={(e) => void patch({ categorySlug: e.target.value || null }, 'Category saved')}
          >
            <option value="">Uncategorised</option>
            {categories.map((c) => (
              <option key={c.id} value={c.slug}>
                {c.parentId ? `  ${c.name}` : c.name}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="tag-picker">
          <legend className="sr-only">Tags</legend>
          {tags.length === 0 ? <span className="faint">No tags yet.</span> : null}
          {tags.map((tag) => {
            const on = tagIds.has(tag.id);
            return (
              <button
                key={tag.id}
                type="button"
                className="tag-option"
                aria-pressed={on}
                onClick={() => {
                  const next = on ? [...tagIds].filter((x) => x !== tag.id) : [...tagIds, tag.id];
                  void patch({ tags: next.map((id) => ({ id })) }, on ? `Removed “${tag.name}”` : `Tagged “${tag.name}”`);
                }}
              >
                {tag.name}
              </button>
            );
          })}
        </fieldset>
        <div className="panel-actions">
          <button
            type="button"
            className="btn"
            onClick={() =>
              void patch({ reviewed: t.reviewedAt === null }, t.reviewedAt === null ? 'Marked reviewed' : 'Unmarked')
            }
            disabled={t.reviewState === 'excluded' || t.reviewState === 'exported'}
          >
            {t.reviewedAt === null ? 'Mark reviewed' : 'Unmark reviewed'}
          </button>
          <button
            type="button"
            className="btn"
            onClick={() =>
              void patch(
                { status: t.status === 'excluded' ? 'posted' : 'excluded' },
                t.status === 'excluded' ? 'Included again' : 'Excluded',
              )
            }
          >
            {t.status === 'excluded' ? 'Include' : 'Exclude'}
          </button>
        </div>
      </section>

      <section className="form-section">
        <h3>Note</h3>
        <label className="field">
          <span className="sr-only">Note</span>
          <textarea ref={noteRef} className="textarea" value={note} onChange={(e) => setNote(e.target.value)} maxLength={10000} />
        </label>
        <div className="panel-actions">
          <button
            type="button"
            className="btn"
            disabled={note === (t.note ?? '')}
            onClick={() => void patch({ note: note.trim() || null }, 'Note saved')}
          >
            Save note
          </button>
        </div>
      </section>

      <SplitsEditor t={t} categories={categories} autoFocus={focus === 'splits'} />

      <section className="form-section">
        <h3>Attachments</h3>
        {t.attachments?.length ? (
          <ul className="attachments">
            {t.attachments.map((a) => (
              <li key={a.id}>
                <span className="ellipsis">{a.filename ?? a.path[a.path.length - 1] ?? a.id}</span>
                <span className="faint">
                  {a.type} · {(a.size / 1024).toFixed(1)} KB
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="faint">No receipt attached. Receipts matched from the inbox appear here.</p>
        )}
      </section>

      <section className="form-section">
        <h3>Who set what</h3>
        <DataTable
          label="Field provenance"
          className="compact"
          hideWhenEmpty
          empty={<p className="faint">Every field is as the bank or the creator gave it.</p>}
          rows={Object.keys(t.fieldSources).sort()}
          rowKey={(field) => field}
          columns={[
            { id: 'field', header: 'Field', cell: (field) => field },
            { id: 'source', header: 'Set by', cell: sourceOf },
          ]}
        />
        {Object.keys(t.metadata).length ? (
          <details>
            <summary>Metadata</summary>
            <pre className="metadata">{JSON.stringify(t.metadata, null, 2)}</pre>
          </details>
        ) : null}
      </section>
    </>
  );
}

let nextKey = 1;
const draftOf = (t: Transaction): SplitDraft[] =>
  t.splits.length
    ? t.splits.map((s) => ({ key: nextKey++, amount: String(s.amount), categorySlug: s.category ?? '', note: s.note ?? '' }))
    : [];

function SplitsEditor({
  t,
  categories,
  autoFocus,
}: {
  t: Transaction;
  categories: readonly TransactionCategory[];
  autoFocus: boolean;
}) {
  const update = useWrite(transactionRoutes.update);
  const toast = useToasts();
  const [parts, setParts] = useState<SplitDraft[]>(() => draftOf(t));
  const [error, setError] = useState<string | null>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (autoFocus) addRef.current?.focus();
  }, [autoFocus]);
  const remainder = useMemo(() => splitRemainder(t.amount, t.currency, parts), [t.amount, t.currency, parts]);
  const editing = parts.length > 0;

  function start() {
    const half = toMinor(t.amount, t.currency);
    const first = Math.trunc(half / 2);
    setParts([
      { key: nextKey++, amount: String(toMajor(first, t.currency)), categorySlug: t.category?.slug ?? '', note: '' },
      { key: nextKey++, amount: String(toMajor(half - first, t.currency)), categorySlug: '', note: '' },
    ]);
  }

  async function save(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (parts.length === 1) return setError('A split has at least two parts.');
    if (remainder === null) return setError('Every part needs an amount.');
    if (remainder !== 0)
      return setError(
        `The parts must add up to ${formatAmount(t.amount, t.currency)}: ${formatAmount(toMajor(remainder, t.currency), t.currency)} left.`,
      );
    try {
      await update.mutateAsync({
        params: { id: t.id },
        body: {
          splits: parts.length
            ? parts.map((p) => ({
                amount: Number(p.amount.replace(',', '.')),
                categorySlug: p.categorySlug || null,
                note: p.note.trim() || null,
              }))
            : null,
        },
      });
      toast.show(parts.length ? `Split into ${parts.length} parts` : 'Split removed');
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 422) {
        const f = fieldErrorsFrom(err);
        setError(f.splits ?? f[FORM_KEY] ?? err.message);
      } else setError((err as Error).message);
    }
  }

  return (
    <form className="form-section" onSubmit={save} aria-labelledby="splits-title" noValidate>
      <h3 id="splits-title">Split</h3>
      {!editing ? (
        <div className="panel-actions">
          <span className="faint grow">Not split. Split a payment that covers several categories.</span>
          <button ref={addRef} type="button" className="btn" onClick={start} disabled={t.reconciledAt !== null}>
            Split into parts <kbd>S</kbd>
          </button>
        </div>
      ) : (
        <>
          {parts.map((p, i) => (
            <div key={p.key} className="split-row">
              <label className="field">
                <span className="label">Part {i + 1} amount</span>
                <input
                  className="input num"
                  inputMode="decimal"
                  value={p.amount}
                  onChange={(e) => setParts(parts.map((x) => (x.key === p.key ? { ...x, amount: e.target.value } : x)))}
                />
              </label>
              <label className="field">
                <span className="label">Part {i + 1} category</span>
                <select
                  className="select"
                  value={p.categorySlug}
                  onChange={(e) => setParts(parts.map((x) => (x.key === p.key ? { ...x, categorySlug: e.target.value } : x)))}
                >
                  <option value="">Uncategorised</option>
                  {categories.map((c) => (
                    <option key={c.id} value={c.slug}>
                      {c.name}
                    </option>
                  ))}
                </select>
              </label>
              <button
                type="button"
                className="btn ghost small"
                aria-label={`Remove part ${i + 1}`}
                onClick={() => setParts(parts.filter((x) => x.key !== p.key))}
              >
                Remove
              </button>
            </div>
          ))}
          <div className={`split-sum ${remainder === 0 ? 'ok' : 'bad'}`} role="status">
            {remainder === null
              ? 'Enter an amount for every part.'
              : remainder === 0
                ? `The parts add up to ${formatAmount(t.amount, t.currency)}.`
                : `${formatAmount(toMajor(remainder, t.currency), t.currency)} left to split of ${formatAmount(t.amount, t.currency)}.`}
          </div>
          {error ? (
            <div className="banner error" role="alert">
              {error}
            </div>
          ) : null}
          <div className="panel-actions">
            <button
              type="button"
              className="btn"
              onClick={() =>
                setParts([
                  ...parts,
                  {
                    key: nextKey++,
                    amount: remainder ? String(toMajor(remainder, t.currency)) : '0',
                    categorySlug: '',
                    note: '',
                  },
                ])
              }
            >
              Add part
            </button>
            <button type="submit" className="btn primary" disabled={update.isPending}>
              Save split
            </button>
            {t.splits.length ? (
              <button
                type="button"
                className="btn ghost"
                onClick={() =>
                  update
                    .mutateAsync({ params: { id: t.id }, body: { splits: null } })
                    .then(() => {
                      setParts([]);
                      toast.show('Split removed');
                    })
                    .catch((err) => toast.error(err, 'Could not remove the split'))
                }
              >
                Remove the split
              </button>
            ) : null}
          </div>
        </>
      )}
    </form>
  );
}
