/**
 * Rules learned from how payees were categorised (GET /v1/rules/suggestions: three of a payee's last five lines
 * agree and no rule gives that category yet). Accepting opens the rule in the editor with its dry run, so nothing
 * is saved unseen.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { type RuleSuggestion, ruleRoutes } from '../../../src-shared/contract/rules';
import { ErrorBanner } from '../../components/ui';
import { useRead } from '../../data/use-read';
import type { RuleNames } from './rule-words';

export type Suggestion = z.infer<typeof RuleSuggestion>;

/** Suggestions shown before "Show all": those that would categorise the most now come first. */
const FIRST = 5;

export function RuleSuggestions(props: { names: RuleNames; onAccept: (s: Suggestion) => void }) {
  const { t } = useTranslation('rules');
  const suggestions = useRead(ruleRoutes.suggestions);
  const [all, setAll] = useState(false);
  if (suggestions.error) return <ErrorBanner error={suggestions.error} onRetry={() => void suggestions.refetch()} />;
  const list = [...(suggestions.data?.data ?? [])].sort((a, b) => b.uncategorized - a.uncategorized);
  if (list.length === 0) return null;
  const shown = all ? list : list.slice(0, FIRST);
  return (
    <section className="card rule-suggestions" aria-labelledby="rule-suggestions-title">
      <h2 id="rule-suggestions-title">{t('suggestions.title')}</h2>
      <p className="faint">{t('suggestions.intro')}</p>
      <ul className="rule-findings">
        {shown.map((s) => (
          <li key={`${s.counterparty}-${s.categorySlug}`} className="finding" data-suggestion={s.counterparty}>
            <span className="grow">
              <strong>{t('suggestions.rule', { who: s.counterparty, category: props.names.category(s.categorySlug) })}</strong>{' '}
              <span className="faint">
                {t('suggestions.evidence', { agree: s.agree, of: s.of })}
                {s.uncategorized ? ` · ${t('suggestions.wouldCategorise', { count: s.uncategorized })}` : null}
              </span>
            </span>
            <button type="button" className="btn small" onClick={() => props.onAccept(s)}>
              {t('suggestions.accept')}
            </button>
          </li>
        ))}
      </ul>
      {list.length > FIRST ? (
        <button type="button" className="btn small ghost rule-more" aria-expanded={all} onClick={() => setAll(!all)}>
          {all ? t('suggestions.fewer') : t('suggestions.all', { count: list.length })}
        </button>
      ) : null}
    </section>
  );
}
