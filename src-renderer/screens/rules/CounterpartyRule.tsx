/**
 * "Always categorise this counterparty as …", from a transaction's panel: a rule for its payee (its counterparty,
 * else its name) setting the chosen category, with the dry run over every transaction shown before it is saved;
 * saving may also apply it at once to what the dry run lists. Collapsed until asked for: the dry run reads history.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TransactionCategory } from '../../../src-shared/contract/categories';
import { ruleRoutes } from '../../../src-shared/contract/rules';
import type { Transaction } from '../../../src-shared/contract/transactions';
import { useWrite } from '../../data/use-write';
import { api } from '../../lib/api';
import { useToasts } from '../../stores/toasts';
import { CategorySelect } from './CategorySelect';
import { DryRunPreview } from './DryRunPreview';
import { counterpartyRule } from './rule-draft';
import { useDryRun } from './use-dry-run';
import { useRuleNames } from './use-rule-names';

export function CounterpartyRule(props: { transaction: Transaction; categories: readonly TransactionCategory[] }) {
  const { t } = useTranslation('rules');
  const { transaction: tx, categories } = props;
  const [open, setOpen] = useState(false);
  const [slug, setSlug] = useState(tx.category?.slug ?? '');
  const [applyNow, setApplyNow] = useState(true);
  const { names } = useRuleNames();
  const create = useWrite(ruleRoutes.create);
  const toast = useToasts();
  const selectId = useId();
  const who = tx.counterpartyName ?? tx.name;
  const input =
    open && slug ? counterpartyRule(tx, slug, t('counterparty.ruleName', { who, category: names.category(slug) })) : null;
  const dryRun = useDryRun(input);
  const wouldChange = dryRun.data?.changed ?? 0;

  async function save() {
    if (!input) return;
    try {
      const rule = await create.mutateAsync({ body: input });
      const applied =
        applyNow && wouldChange > 0 ? (await api.call(ruleRoutes.run, { params: { id: rule.id }, body: {} })).changed : 0;
      toast.show(
        applied ? t('editor.savedApplied', { name: rule.name, count: applied }) : t('editor.saved', { name: rule.name }),
      );
      setOpen(false);
    } catch (err) {
      toast.error(err, t('counterparty.failed'));
    }
  }

  return (
    <section className="form-section" aria-labelledby="tx-rule-title" data-testid="counterparty-rule">
      <h3 id="tx-rule-title">{t('counterparty.title')}</h3>
      {!open ? (
        <div className="panel-actions">
          <button type="button" className="btn" onClick={() => setOpen(true)}>
            {t('counterparty.start', { who })}
          </button>
        </div>
      ) : (
        <>
          <div className="field">
            <label className="label" htmlFor={selectId}>
              {t('counterparty.always', { who })}
            </label>
            <CategorySelect id={selectId} categories={categories} className="select" value={slug} onChange={setSlug} />
          </div>
          {input ? <DryRunPreview result={dryRun} names={names} /> : null}
          {input && wouldChange > 0 ? (
            <label className="check">
              <input type="checkbox" checked={applyNow} onChange={(e) => setApplyNow(e.target.checked)} />
              {t('editor.applyNow', { count: wouldChange })}
            </label>
          ) : null}
          <div className="panel-actions">
            <button type="button" className="btn primary" disabled={!input || create.isPending} onClick={() => void save()}>
              {t('counterparty.create')}
            </button>
            <button type="button" className="btn ghost" onClick={() => setOpen(false)}>
              {t('common:cancel')}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
