/**
 * What the linter finds in the team's rules over the last 12 months (GET /v1/rules/lint): rules that cannot work
 * (the server's words), rules that never matched, rules whose every change a later rule makes again, and pairs that
 * set one field to different values on the same transactions. Each names its rules, which open in the editor.
 */
import { useTranslation } from 'react-i18next';
import type { Rule } from '../../../src-shared/contract/rules';
import { ruleRoutes } from '../../../src-shared/contract/rules';
import { ErrorBanner } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { formatDate } from '../../lib/format';

export function LintWarnings(props: { rules: readonly Rule[]; onOpen: (rule: Rule) => void }) {
  const { t, i18n } = useTranslation('rules');
  const lint = useRead(ruleRoutes.lint, undefined, { enabled: props.rules.length > 0 });
  const byId = new Map(props.rules.map((r) => [r.id, r]));
  const name = (id: string) => byId.get(id)?.name ?? id;
  const field = (f: string) => (i18n.exists(`transactions:fields.${f}`) ? t(`transactions:fields.${f}`) : f);
  const open = (id: string) => {
    const rule = byId.get(id);
    return rule ? (
      <button type="button" className="btn small ghost" onClick={() => props.onOpen(rule)}>
        {t('lint.open', { name: rule.name })}
      </button>
    ) : null;
  };
  if (props.rules.length === 0) return null;
  if (lint.error) return <ErrorBanner error={lint.error} onRetry={() => void lint.refetch()} />;
  const l = lint.data;
  if (!l) return null;
  const count = l.problems.length + l.neverMatched.length + l.shadowed.length + l.conflicts.length;
  return (
    <section className="card rule-lint" aria-labelledby="rule-lint-title" data-testid="rule-lint">
      <h2 id="rule-lint-title">{t('lint.title', { from: formatDate(l.window.start), to: formatDate(l.window.end) })}</h2>
      {count === 0 ? <p className="faint">{t('lint.clean')}</p> : null}
      <ul className="rule-findings">
        {l.problems.map((p) => (
          <li key={`p-${p.ruleId}-${p.message}`} className="finding bad">
            <span className="grow">
              {t('lint.problem', { name: name(p.ruleId) })} <span lang="en">{p.message}</span>
            </span>
            {open(p.ruleId)}
          </li>
        ))}
        {l.conflicts.map((c) => (
          <li key={`c-${c.ruleIds.join('-')}-${c.field}`} className="finding warn">
            <span className="grow">
              {t('lint.conflict', {
                a: name(c.ruleIds[0]),
                b: name(c.ruleIds[1]),
                field: field(c.field),
                count: c.transactions,
                example: c.example,
              })}
            </span>
            {open(c.ruleIds[0])}
          </li>
        ))}
        {l.shadowed.map((s) => (
          <li key={`s-${s.ruleId}`} className="finding warn">
            <span className="grow">
              {t('lint.shadowed', { name: s.name, by: s.by.map(name).join(', '), count: s.transactions })}
            </span>
            {open(s.ruleId)}
          </li>
        ))}
        {l.neverMatched.map((n) => (
          <li key={`n-${n.ruleId}`} className="finding">
            <span className="grow">{t('lint.neverMatched', { name: n.name })}</span>
            {open(n.ruleId)}
          </li>
        ))}
      </ul>
    </section>
  );
}
