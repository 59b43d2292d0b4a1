/**
 * Rules learned from how payees were categorised (GET /v1/rules/suggestions: three of a payee's last five lines
 * agree and no rule gives that category yet). Accepting opens the rule in the editor with its dry run, so nothing
 * is saved unseen.
 */
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { type RuleSuggestion, ruleRoutes } from '../../../src-shared/contract/rules';
import { ErrorBanner } from '../../components/ui';
import { useRead } from '../../data/use-read';
import type { RuleNames } from './rule-words';

export type Suggestion = z.infer<typeof RuleSuggestion>;

export function RuleSuggestions(props: { names: RuleNames; onAccept: (s: Suggestion) => void }) {
  const { t } = useTranslation('rules');
  const suggestions = useRead(ruleRoutes.suggestions);
  if (suggestions.error) return <ErrorBanner error={suggestions.error} onRetry={() => void suggestions.refetch()} />;
  const list = suggestions.data?.data ?? [];
  if (list.length === 0) return null;
  return (
    <section className="card rule-suggestions" aria-labelledby="rule-suggestions-title">
      <h2 id="rule-suggestions-title">{t('suggestions.title')}</h2>
      <p className="faint">{t('suggestions.intro')}</p>
      <ul className="rule-findings">
        {list.map((s) => (
          <li key={`${s.counterparty}-${s.categorySlug}`} className="finding" data-suggestion={s.counterparty}>
            <span className="grow">
              <strong>{t('suggestions.rule', { who: s.counterparty, category: props.names.category(s.categorySlug) })}</strong>{' '}
              <span className="faint">
                {t('suggestions.evidence', { agree: s.agree, of: s.of })} ·{' '}
                {t('suggestions.wouldCategorise', { count: s.uncategorized })}
              </span>
            </span>
            <button type="button" className="btn small" onClick={() => props.onAccept(s)}>
              {t('suggestions.accept')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
