/**
 * The detail panel of one transaction: every field of the detailed record, grouped; the category, tags, note and
 * review flags editable; the splits editor (parts must sum exactly to the amount, checked in minor units before the
 * server checks again); the attachments; and each field's provenance (which person, rule or import set it last).
 */
import type { TFunction } from 'i18next';
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import type { TransactionCategory } from '../../../src-shared/contract/categories';
import { type Transaction, transactionRoutes } from '../../../src-shared/contract/transactions';
import { toMajor, toMinor } from '../../../src-shared/money';
import { TagField } from '../../components/TagField';
import { DataTable } from '../../components/table/DataTable';
import { ErrorBanner, Kbd } from '../../components/ui';
import { useRecord } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { i18n } from '../../i18n';
import { FORM_KEY, fieldErrorsFrom } from '../../lib/field-errors';
import { formatAmount, formatDate, formatDateTime, formatNumber } from '../../lib/format';
import { useToasts } from '../../stores/toasts';
import { TransactionReceipts } from '../inbox/TransactionReceipts';
import { CounterpartyRule } from '../rules/CounterpartyRule';
import { REVIEW_TONE } from './grid-columns';

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

/**
 * What the parts still lack, said without a sign that reads wrong: an expense of −€38.12 split into −€27.18 has
 * €10.94 left to split; split into −€49.06 it is €10.94 over. Minor units in, minor units out (never negative).
 */
export function splitGap(amountMajor: number, currency: string, remainder: number): { kind: 'left' | 'over'; minor: number } {
  const total = toMinor(amountMajor, currency);
  const over = total === 0 ? remainder !== 0 : Math.sign(remainder) !== Math.sign(total);
  return { kind: over ? 'over' : 'left', minor: Math.abs(remainder) };
}

/** A value the API names by a code (`card_purchase`, `monthly`) in words, from `transactions:<group>.<code>`. */
function named(group: string, code: string | null): string {
  if (!code) return '—';
  const key = `transactions:${group}.${code}`;
  return i18n.exists(key) ? i18n.t(key) : code.replace(/_/g, ' ');
}

export function TransactionPanel(props: {
  id: string;
  focus?: 'splits' | 'note';
  categories: readonly TransactionCategory[];
  tags: readonly { id: string; name: string }[];
  onClose: () => void;
}) {
  const { t: tr } = useTranslation('transactions');
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
      <aside className="drawer tx-panel" role="dialog" aria-modal="true" aria-labelledby={titleId} data-transaction-id={props.id}>
        <div className="drawer-header">
          <h2 id={titleId} className="ellipsis">
            {t ? t.name : tr('panel.transaction')}
          </h2>
          <button ref={closeRef} type="button" className="btn ghost" onClick={props.onClose}>
            {tr('common:close')} <Kbd k="Esc" />
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
  const { t: tr } = useTranslation('transactions');
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
      toast.error(err, tr('panel.saveFailed'));
    }
  }

  const tagIds = new Set((t.tags ?? []).map((x) => x.id));
  const sourceOf = (field: string) => {
    const s = t.fieldSources[field];
    return s
      ? `${named('sources', s.source)}${s.sourceId ? ` (${s.sourceId.slice(0, 8)})` : ''}, ${formatDateTime(s.setAt)}`
      : null;
  };
  const yesNo = (value: boolean | null) => (value ? tr('panel.yes') : tr('panel.no'));

  return (
    <>
      <section className="form-section">
        <div className="tx-amount">
          <span className={`money big ${t.amount < 0 ? 'out' : 'in'}`}>{formatAmount(t.amount, t.currency)}</span>
          <span className={`pill ${REVIEW_TONE[t.reviewState]}`} data-review-state={t.reviewState}>
            {tr(`tabs.${t.reviewState}`)}
          </span>
        </div>
        <dl className="facts tight">
          <dt>{tr('columns.date')}</dt>
          <dd>{formatDate(t.date.slice(0, 10))}</dd>
          <dt>{tr('columns.account')}</dt>
          <dd>
            {t.account.name} <span className="faint">({t.account.currency})</span>
          </dd>
          <dt>{tr('panel.counterparty')}</dt>
          <dd>{t.counterpartyName ?? '—'}</dd>
          <dt>{tr('panel.merchant')}</dt>
          <dd>{t.merchantName ?? '—'}</dd>
          <dt>{tr('columns.description')}</dt>
          <dd>{t.description ?? '—'}</dd>
          <dt>{tr('panel.method')}</dt>
          <dd>{named('methods', t.method)}</dd>
          <dt>{tr('filters.status')}</dt>
          <dd>{named('statuses', t.status)}</dd>
          <dt>{tr('panel.balanceAfter')}</dt>
          <dd>{formatAmount(t.balance, t.currency)}</dd>
          <dt>{tr('panel.inBase')}</dt>
          <dd>{t.baseAmount === null ? tr('panel.noRate') : formatAmount(t.baseAmount, t.baseCurrency)}</dd>
          <dt>{tr('panel.tax')}</dt>
          <dd>
            {t.taxAmount === null ? '—' : formatAmount(t.taxAmount, t.currency)}
            {t.taxRate !== null
              ? ` ${tr('panel.taxAt', { rate: formatNumber(t.taxRate, Number.isInteger(t.taxRate) ? 0 : 2) })}`
              : ''}
            {t.taxType ? ` (${named('taxTypes', t.taxType)})` : ''}
            {t.taxOverridden ? <span className="faint"> · {tr('panel.taxOverridden')}</span> : null}
          </dd>
          <dt>{tr('panel.reviewed')}</dt>
          <dd>{t.reviewedAt ? formatDateTime(t.reviewedAt) : tr('panel.notYet')}</dd>
          <dt>{tr('panel.reconciled')}</dt>
          <dd>{t.reconciledAt ? formatDateTime(t.reconciledAt) : tr('panel.no')}</dd>
          <dt>{tr('panel.receipt')}</dt>
          <dd>{t.isFulfilled ? tr('panel.fulfilled') : tr('panel.missing')}</dd>
          <dt>{tr('panel.internal')}</dt>
          <dd>{yesNo(t.internal)}</dd>
          <dt>{tr('panel.recurring')}</dt>
          <dd>
            {t.recurring ? `${tr('panel.yes')}${t.frequency ? `, ${named('frequencies', t.frequency)}` : ''}` : tr('panel.no')}
          </dd>
          <dt>{tr('panel.manual')}</dt>
          <dd>{t.manual ? tr('panel.manualYes') : tr('panel.manualNo')}</dd>
          <dt>{tr('panel.assignee')}</dt>
          <dd>{t.assignedId ?? '—'}</dd>
          <dt>{tr('panel.complete')}</dt>
          <dd>{t.metadataCompleted ? tr('panel.yes') : tr('panel.completePending')}</dd>
          <dt>{tr('panel.notified')}</dt>
          <dd>{t.notified === null ? '—' : yesNo(t.notified)}</dd>
          <dt>{tr('panel.reference')}</dt>
          <dd>
            <code>{t.internalId}</code>
          </dd>
          <dt>{tr('panel.created')}</dt>
          <dd>{formatDateTime(t.createdAt)}</dd>
          <dt>{tr('panel.updated')}</dt>
          <dd>{formatDateTime(t.updatedAt)}</dd>
        </dl>
      </section>

      <section className="form-section">
        <h3>{tr('panel.categoryAndTags')}</h3>
        <label className="field">
          <span className="label">{tr('columns.category')}</span>
          <select
            className="select"
            value={t.category?.slug ?? ''}
            onChange={(e) => void patch({ categorySlug: e.target.value || null }, tr('panel.categorySaved'))}
          >
            <option value="">{tr('uncategorised')}</option>
            {categories.map((c) => (
              <option key={c.id} value={c.slug}>
                {c.parentId ? `  ${c.name}` : c.name}
              </option>
            ))}
          </select>
        </label>
        <TagField
          tags={tags}
          selected={[...tagIds]}
          legend={tr('columns.tags')}
          empty={tr('panel.noTags')}
          onToggle={(tag, on) => {
            const next = on ? [...tagIds, tag.id] : [...tagIds].filter((x) => x !== tag.id);
            void patch(
              { tags: next.map((id) => ({ id })) },
              on ? tr('panel.tagAdded', { name: tag.name }) : tr('panel.tagRemoved', { name: tag.name }),
            );
          }}
        />
        <div className="panel-actions">
          <button
            type="button"
            className="btn"
            onClick={() =>
              void patch(
                { reviewed: t.reviewedAt === null },
                t.reviewedAt === null ? tr('panel.markedReviewed') : tr('panel.unmarked'),
              )
            }
            disabled={t.reviewState === 'excluded' || t.reviewState === 'exported'}
          >
            {t.reviewedAt === null ? tr('panel.markReviewed') : tr('panel.unmarkReviewed')}
          </button>
          <button
            type="button"
            className="btn"
            onClick={() =>
              void patch(
                { status: t.status === 'excluded' ? 'posted' : 'excluded' },
                t.status === 'excluded' ? tr('panel.includedAgain') : tr('panel.excluded'),
              )
            }
          >
            {t.status === 'excluded' ? tr('panel.include') : tr('panel.exclude')}
          </button>
        </div>
      </section>

      <section className="form-section">
        <h3>{tr('pickers.note')}</h3>
        <label className="field">
          <span className="sr-only">{tr('pickers.note')}</span>
          <textarea ref={noteRef} className="textarea" value={note} onChange={(e) => setNote(e.target.value)} maxLength={10000} />
        </label>
        <div className="panel-actions">
          <button
            type="button"
            className="btn"
            disabled={note === (t.note ?? '')}
            onClick={() => void patch({ note: note.trim() || null }, tr('panel.noteSaved'))}
          >
            {tr('pickers.saveNote')}
          </button>
        </div>
      </section>

      <SplitsEditor t={t} categories={categories} autoFocus={focus === 'splits'} />

      <TransactionReceipts transaction={t} />
      <CounterpartyRule transaction={t} categories={categories} />

      <section className="form-section">
        <h3>{tr('panel.whoSetWhat')}</h3>
        <DataTable
          label={tr('panel.provenance')}
          className="compact"
          hideWhenEmpty
          empty={<p className="faint">{tr('panel.asGiven')}</p>}
          rows={Object.keys(t.fieldSources).sort()}
          rowKey={(field) => field}
          columns={[
            { id: 'field', header: tr('panel.field'), cell: (field) => named('fields', field) },
            { id: 'source', header: tr('panel.setBy'), cell: sourceOf },
          ]}
        />
        {Object.keys(t.metadata).length ? (
          <details>
            <summary>{tr('panel.metadata')}</summary>
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
  const { t: tr } = useTranslation('transactions');
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
    if (parts.length === 1) return setError(tr('split.twoParts'));
    if (remainder === null) return setError(tr('split.everyAmount'));
    if (remainder !== 0) {
      const gap = splitGap(t.amount, t.currency, remainder);
      return setError(
        tr(gap.kind === 'left' ? 'split.mustAddUp' : 'split.mustAddUpOver', {
          amount: formatAmount(t.amount, t.currency),
          left: formatAmount(toMajor(gap.minor, t.currency), t.currency),
        }),
      );
    }
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
      toast.show(parts.length ? tr('split.done', { count: parts.length }) : tr('split.removed'));
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 422) {
        const f = fieldErrorsFrom(err);
        setError(f.splits ?? f[FORM_KEY] ?? err.message);
      } else setError((err as Error).message);
    }
  }

  return (
    <form className="form-section" onSubmit={save} aria-labelledby="splits-title" noValidate>
      <h3 id="splits-title">{tr('split.title')}</h3>
      {!editing ? (
        <div className="panel-actions">
          <span className="faint grow">{tr('split.notSplit')}</span>
          <button ref={addRef} type="button" className="btn" onClick={start} disabled={t.reconciledAt !== null}>
            {tr('split.start')} <kbd>S</kbd>
          </button>
        </div>
      ) : (
        <>
          {parts.map((p, i) => (
            <div key={p.key} className="split-row">
              <label className="field">
                <span className="label">{tr('split.partAmount', { n: i + 1 })}</span>
                <input
                  className="input num"
                  inputMode="decimal"
                  value={p.amount}
                  onChange={(e) => setParts(parts.map((x) => (x.key === p.key ? { ...x, amount: e.target.value } : x)))}
                />
              </label>
              <label className="field">
                <span className="label">{tr('split.partCategory', { n: i + 1 })}</span>
                <select
                  className="select"
                  value={p.categorySlug}
                  onChange={(e) => setParts(parts.map((x) => (x.key === p.key ? { ...x, categorySlug: e.target.value } : x)))}
                >
                  <option value="">{tr('uncategorised')}</option>
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
                aria-label={tr('split.removePart', { n: i + 1 })}
                onClick={() => setParts(parts.filter((x) => x.key !== p.key))}
              >
                {tr('split.remove')}
              </button>
            </div>
          ))}
          <div className={`split-sum ${remainder === 0 ? 'ok' : 'bad'}`} role="status">
            {remainder === null
              ? tr('split.enterEvery')
              : remainder === 0
                ? tr('split.addsUp', { amount: formatAmount(t.amount, t.currency) })
                : gapText(tr, t, remainder)}
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
              {tr('split.add')}
            </button>
            <button type="submit" className="btn primary" disabled={update.isPending}>
              {tr('split.save')}
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
                      toast.show(tr('split.removed'));
                    })
                    .catch((err) => toast.error(err, tr('split.removeFailed')))
                }
              >
                {tr('split.removeAll')}
              </button>
            ) : null}
          </div>
        </>
      )}
    </form>
  );
}

function gapText(tr: TFunction<'transactions'>, t: Transaction, remainder: number): string {
  const gap = splitGap(t.amount, t.currency, remainder);
  return tr(gap.kind === 'left' ? 'split.left' : 'split.over', {
    left: formatAmount(toMajor(gap.minor, t.currency), t.currency),
    amount: formatAmount(t.amount, t.currency),
  });
}
