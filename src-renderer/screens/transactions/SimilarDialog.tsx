/**
 * "Apply to 12 similar": after a transaction is categorised, the uncategorised ones from the same payee, with the
 * dry run (GET /v1/rules/similar: each transaction and the field change it would get) shown before anything is
 * written. Applying categorises exactly those transactions (one undoable action); a rule for future transactions is
 * created only when asked for.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { ReviewRow } from '../../../src-shared/contract/app-transactions';
import { type RuleInput, type RuleRunResult, ruleRoutes } from '../../../src-shared/contract/rules';
import { DataTable } from '../../components/table/DataTable';
import { api } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { useToasts } from '../../stores/toasts';
import { bulkUpdate } from './bulk-update';
import type { UndoEntry } from './undo';

export interface SimilarOffer {
  source: ReviewRow;
  categoryName: string;
  slug: string;
  rule: RuleInput | null;
  preview: z.infer<typeof RuleRunResult>;
  ids: string[];
}

export function SimilarDialog(props: { offer: SimilarOffer; onClose: () => void; onApplied: (undo: UndoEntry) => void }) {
  const { t, i18n } = useTranslation('transactions');
  const { offer } = props;
  const count = offer.ids.length;
  const [createRule, setCreateRule] = useState(false);
  const [busy, setBusy] = useState(false);
  const toast = useToasts();
  const titleId = useId();
  const applyRef = useRef<HTMLButtonElement>(null);
  useEffect(() => applyRef.current?.focus(), []);
  const shown = offer.preview.transactions.filter((row) => offer.ids.includes(row.id));

  async function apply() {
    setBusy(true);
    try {
      await bulkUpdate(offer.ids, { categorySlug: offer.slug });
      if (createRule && offer.rule) await api.call(ruleRoutes.create, { body: offer.rule });
      const label = t('similar.done', { count, name: offer.categoryName });
      toast.show(createRule && offer.rule ? t('similar.doneWithRule', { count, name: offer.categoryName }) : label);
      // They were uncategorised (that is what the dry run selects): undo returns them there.
      props.onApplied({
        label,
        field: 'category',
        before: offer.ids.map((id) => ({ id, value: null })),
      });
    } catch (err) {
      toast.error(err, t('similar.failed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <div className="overlay top" onClick={props.onClose} aria-hidden="true" />
      <div
        className="dialog wide"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            props.onClose();
          }
        }}
      >
        <h2 id={titleId}>{t('similar.title', { count, name: offer.categoryName })}</h2>
        <p className="muted">{t('similar.dryRunText', { from: offer.source.counterpartyName ?? offer.source.name })}</p>
        <DataTable
          label={t('similar.dryRun')}
          className="compact"
          wrap="dry-run"
          rows={shown}
          rowKey={(row) => row.id}
          columns={[
            { id: 'date', header: t('columns.date'), className: 'date', cell: (row) => formatDate(row.date.slice(0, 10)) },
            { id: 'name', header: t('columns.transaction'), cell: (row) => <div className="cell-text wide">{row.name}</div> },
            {
              id: 'change',
              header: t('similar.change'),
              cell: (row) =>
                row.changes.map((c) => (
                  <div key={c.field} className="change">
                    {i18n.exists(`transactions:fields.${c.field}`) ? t(`fields.${c.field}`) : c.field}:{' '}
                    <span className="faint">{String(c.before ?? t('similar.none'))}</span> →{' '}
                    <strong>{String(c.after ?? t('similar.none'))}</strong>
                  </div>
                )),
            },
          ]}
        />
        {offer.preview.truncated ? <p className="faint small">{t('similar.truncated')}</p> : null}
        {offer.rule ? (
          <label className="check">
            <input type="checkbox" checked={createRule} onChange={(e) => setCreateRule(e.target.checked)} />
            {t('similar.saveRule', { name: offer.rule.name })}
          </label>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={props.onClose}>
            {t('common:cancel')}
          </button>
          <button ref={applyRef} type="button" className="btn primary" onClick={() => void apply()} disabled={busy}>
            {busy ? t('similar.applying') : t('similar.applyCount', { count })}
          </button>
        </div>
      </div>
    </>
  );
}
