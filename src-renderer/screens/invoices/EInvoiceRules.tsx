/**
 * The e-invoice checks an invoice fails, as an accountant reads them: what is wrong in the user's language, which
 * field (and its EN 16931 business term) and rule, and a way to the form where it is fixed. A rule the catalogue
 * does not know keeps the server's English words (marked as English for screen readers).
 */
import { useTranslation } from 'react-i18next';
import type { RuleFailure } from '../../../src-shared/contract/errors';
import { AppLink } from '../../components/AppLink';
import { type FailureView, type FixTarget, failureViews } from './einvoice-failures';

export function EInvoiceRules({
  failures,
  onFix,
  editable = false,
}: {
  failures: readonly RuleFailure[];
  /** Opens the form of a customer or team field, or the draft's own form; Team settings are links. */
  onFix: (target: FixTarget) => void;
  /** The invoice is a draft: what comes from it is fixed by editing it. */
  editable?: boolean;
}) {
  const { t } = useTranslation('einvoice');
  return (
    <ul className="einv-rules" aria-label={t('list.label')}>
      {failureViews(failures).map((v, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a rule can fail twice (seller and buyer); order is stable
        <li key={`${v.rule}-${i}`} className="einv-rule" data-rule={v.rule}>
          <RuleText view={v} />
          <Fix target={v.fix} onFix={onFix} editable={editable} />
        </li>
      ))}
    </ul>
  );
}

function RuleText({ view: v }: { view: FailureView }) {
  const { t } = useTranslation('einvoice');
  const vars = { ...v.vars, category: v.vars.category ? t(`categories.${v.vars.category}`) : undefined };
  const field = v.fieldKey ? t(v.fieldKey, vars) : v.rawField;
  return (
    <div className="einv-rule-text">
      {v.messageKey ? <strong>{t(v.messageKey, vars)}</strong> : <strong lang="en">{v.message}</strong>}
      <span className="faint">
        {v.term ? t('list.whereTerm', { field, term: v.term, rule: v.rule }) : t('list.where', { field, rule: v.rule })}
      </span>
    </div>
  );
}

function Fix({ target, onFix, editable }: { target: FixTarget; onFix: (target: FixTarget) => void; editable: boolean }) {
  const { t } = useTranslation('einvoice');
  switch (target.kind) {
    case 'customer':
    case 'team':
      return (
        <button type="button" className="btn small" onClick={() => onFix(target)}>
          {t(target.kind === 'customer' ? 'fix.customer' : 'fix.team')}
        </button>
      );
    case 'settings':
      // Team settings (its details, bank accounts, invoice defaults): never the person's own settings page.
      return (
        <AppLink to={target.path} className="btn small">
          {t('fix.settings')}
        </AppLink>
      );
    default:
      return editable ? (
        <button type="button" className="btn small" onClick={() => onFix(target)}>
          {t('fix.editDraft')}
        </button>
      ) : (
        <span className="faint einv-fix-note">{t('fix.invoice')}</span>
      );
  }
}
