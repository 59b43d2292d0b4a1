/**
 * "Apply to 12 similar": after a transaction is categorised, the uncategorised ones from the same payee, with the
 * dry run (GET /v1/rules/similar: each transaction and the field change it would get) shown before anything is
 * written. Applying categorises exactly those transactions (one undoable action); a rule for future transactions is
 * created only when asked for.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { z } from 'zod';
import type { ReviewRow } from '../../../src-shared/contract/app-transactions';
import { type RuleInput, type RuleRunResult, ruleRoutes } from '../../../src-shared/contract/rules';
import { DataTable } from '../../components/table/DataTable';
import { api } from '../../lib/api';
import { formatDate, formatNumber } from '../../lib/format';
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
  const { offer } = props;
  const [createRule, setCreateRule] = useState(false);
  const [busy, setBusy] = useState(false);
  const toast = useToasts();
  const titleId = useId();
  const applyRef = useRef<HTMLButtonElement>(null);
  useEffect(() => applyRef.current?.focus(), []);
  const shown = offer.preview.transactions.filter((t) => offer.ids.includes(t.id));

  async function apply() {
    setBusy(true);
    try {
      await bulkUpdate(offer.ids, { categorySlug: offer.slug });
      if (createRule && offer.rule) await api.call(ruleRoutes.create, { body: offer.rule });
      toast.show(
        `Categorised ${formatNumber(offer.ids.length)} similar as ${offer.categoryName}${createRule && offer.rule ? ' and saved the rule' : ''}`,
      );
      // They were uncategorised (that is what the dry run selects): undo returns them there.
      props.onApplied({
        label: `Categorised ${formatNumber(offer.ids.length)} similar as ${offer.categoryName}`,
        field: 'category',
        before: offer.ids.map((id) => ({ id, value: null })),
      });
    } catch (err) {
      toast.error(err, 'Could not apply to the similar transactions');
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
        <h2 id={titleId}>
          Categorise {formatNumber(offer.ids.length)} similar as {offer.categoryName}?
        </h2>
        <p className="muted">
          The dry run: these uncategorised transactions from “{offer.source.counterpartyName ?? offer.source.name}” would change.
          Nothing is written until you apply.
        </p>
        <DataTable
          label="Dry run"
          className="compact"
          wrap="dry-run"
          rows={shown}
          rowKey={(t) => t.id}
          columns={[
            { id: 'date', header: 'Date', className: 'date', cell: (t) => formatDate(t.date.slice(0, 10)) },
            { id: 'name', header: 'Transaction', cell: (t) => <div className="cell-text wide">{t.name}</div> },
            {
              id: 'change',
              header: 'Change',
              cell: (t) =>
                t.changes.map((c) => (
                  <div key={c.field} className="change">
                    {c.field}: <span className="faint">{String(c.before ?? 'none')}</span> →{' '}
                    <strong>{String(c.after ?? 'none')}</strong>
                  </div>
                )),
            },
          ]}
        />
        {offer.preview.truncated ? <p className="faint small">More would change than are listed here.</p> : null}
        {offer.rule ? (
          <label className="check">
            <input type="checkbox" checked={createRule} onChange={(e) => setCreateRule(e.target.checked)} />
            Also save a rule “{offer.rule.name}” for future transactions
          </label>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={props.onClose}>
            Cancel
          </button>
          <button ref={applyRef} type="button" className="btn primary" onClick={() => void apply()} disabled={busy}>
            {busy ? 'Applying…' : `Apply to ${formatNumber(offer.ids.length)}`}
          </button>
        </div>
      </div>
    </>
  );
}
