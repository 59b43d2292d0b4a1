/**
 * Rules (`/rules`): the team's rules in the order they run, each with its conditions and actions in words, how often
 * it matched, and a switch to turn it off; what the linter finds; rules learned from history to accept. A rule opens
 * in the editor with its dry run. Arriving from an import (`?fromBatch=`), the editor opens with a rule proposed
 * from that import's rows (RuleFromBatch). Keyboard: `n` writes a new rule, ↑/↓ and Enter open one.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Rule, ruleRoutes } from '../../../src-shared/contract/rules';
import { PageHeader } from '../../components/PageHeader';
import type { Column } from '../../components/table/columns';
import { DataTable } from '../../components/table/DataTable';
import { EmptyState } from '../../components/table/EmptyState';
import { ErrorBanner, Kbd } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { formatDate, formatNumber } from '../../lib/format';
import { useScreenKeys } from '../../lib/use-screen-keys';
import { useToasts } from '../../stores/toasts';
import { LintWarnings } from './LintWarnings';
import { RuleEditor } from './RuleEditor';
import { RuleFromBatch, useFromBatch } from './RuleFromBatch';
import { RuleSuggestions } from './RuleSuggestions';
import { draftOf, emptyDraft, type RuleDraft } from './rule-draft';
import { actionsWords, conditionWords, type RuleNames } from './rule-words';
import { useRuleNames } from './use-rule-names';
import './rules.css';

/** Amounts in the editor as the user writes numbers. */
export const editorNumber = (n: number) => formatNumber(n, Number.isInteger(n) ? 0 : 2);

export function RulesScreen() {
  const { t } = useTranslation('rules');
  const rules = useRead(ruleRoutes.list);
  const { names } = useRuleNames();
  const [editing, setEditing] = useState<{ rule?: Rule; draft: RuleDraft } | null>(null);
  const [fromBatch, dropBatch] = useFromBatch();
  const list = rules.data?.data ?? [];
  const open = (rule: Rule) => setEditing({ rule, draft: draftOf(rule as Parameters<typeof draftOf>[0], editorNumber) });
  const columns = useRuleColumns(names);

  useScreenKeys({ n: () => setEditing({ draft: emptyDraft() }) }, { enabled: !editing && !fromBatch });

  return (
    <div className="page rules-page">
      <PageHeader namespace="rules">
        <button type="button" className="btn primary" onClick={() => setEditing({ draft: emptyDraft() })}>
          {t('new')} <Kbd k="N" />
        </button>
      </PageHeader>

      {fromBatch ? <RuleFromBatch key={fromBatch} batchId={fromBatch} onClose={dropBatch} /> : null}

      <LintWarnings rules={list} onOpen={open} />

      {rules.error ? <ErrorBanner error={rules.error} onRetry={() => void rules.refetch()} /> : null}
      <div className="card">
        <DataTable
          label={t('listLabel')}
          className="rules-table"
          columns={columns}
          rows={list}
          rowKey={(r) => r.id}
          rowProps={(r) => ({ 'data-rule-id': r.id, className: r.enabled ? '' : 'off' })}
          onOpen={open}
          wrap
          loading={rules.isLoading}
          skeletonRows={4}
          empty={
            rules.error ? null : (
              <EmptyState
                title={t('empty.title')}
                action={
                  <button type="button" className="btn primary" onClick={() => setEditing({ draft: emptyDraft() })}>
                    {t('empty.action')}
                  </button>
                }
              >
                {t('empty.text')}
              </EmptyState>
            )
          }
        />
      </div>

      <RuleSuggestions names={names} onAccept={(s) => setEditing({ draft: draftOf(s.rule, editorNumber) })} />

      {editing ? <RuleEditor rule={editing.rule} initial={editing.draft} onClose={() => setEditing(null)} /> : null}
    </div>
  );
}

function useRuleColumns(names: RuleNames): Column<Rule>[] {
  const { t } = useTranslation('rules');
  const update = useWrite(ruleRoutes.update).mutateAsync;
  return useMemo(() => {
    const toast = useToasts.getState();
    const toggle = (r: Rule) =>
      update({ params: { id: r.id }, body: { enabled: !r.enabled } })
        .then(() => toast.show(t(r.enabled ? 'turnedOff' : 'turnedOn', { name: r.name })))
        .catch((err) => toast.error(err, t('toggleFailed')));
    return [
      {
        id: 'name',
        header: t('columns.name'),
        cell: (r) => (
          <div className="cell-text">
            {r.name}
            {r.stage !== 'default' ? <span className="rule-stage">{t(`stages.${r.stage}`)}</span> : null}
          </div>
        ),
      },
      {
        id: 'when',
        header: t('columns.when'),
        cell: (r) => <div className="rule-words">{conditionWords(r.conditions, names)}</div>,
      },
      { id: 'then', header: t('columns.then'), cell: (r) => <div className="rule-words">{actionsWords(r.actions, names)}</div> },
      {
        id: 'runs',
        header: t('columns.runs'),
        cell: (r) =>
          r.enabled && r.applyOn.length
            ? r.applyOn.map((a) => t(`applyOnShort.${a}`)).join(', ')
            : r.enabled
              ? t('onlyByHand')
              : t('off'),
      },
      {
        id: 'matched',
        header: t('columns.matched'),
        numeric: true,
        className: 'num',
        cell: (r) => (
          <>
            {formatNumber(r.matchCount)}
            {r.lastMatchedAt ? <div className="faint small">{formatDate(r.lastMatchedAt)}</div> : null}
          </>
        ),
      },
      {
        id: 'enabled',
        header: t('columns.enabled'),
        cell: (r) => (
          <button
            type="button"
            className="switch"
            role="switch"
            aria-checked={r.enabled}
            aria-label={t('columns.enabledFor', { name: r.name })}
            onClick={(e) => {
              e.stopPropagation();
              void toggle(r);
            }}
            onKeyDown={(e) => e.stopPropagation()}
          >
            <span aria-hidden="true" />
          </button>
        ),
      },
    ];
  }, [t, names, update]);
}
