/**
 * A dry run's answer, as the rule editor and "always categorise …" show it before anything is saved: how many
 * transactions it looked at and would change, and each change (field: before → after, categories by name), with
 * the actions that could not apply.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { RuleRunResult } from '../../../src-shared/contract/rules';
import { DataTable } from '../../components/table/DataTable';
import { ErrorBanner } from '../../components/ui';
import { formatDate, formatNumber } from '../../lib/format';
import type { RuleNames } from './rule-words';

type Result = z.infer<typeof RuleRunResult>;

export function DryRunPreview(props: {
  result: UseQueryResult<Result, Error>;
  names: RuleNames;
  /** Shown while the rule cannot be previewed yet (a part is missing). */
  incomplete?: boolean;
  /** The dry run covered an import's rows only, not every transaction: the summary says so. */
  batch?: boolean;
}) {
  const { t, i18n } = useTranslation('rules');
  const { result, names } = props;
  const data = result.data;
  const value = (field: string, v: unknown) => {
    if (v === null || v === undefined || v === '') return t('preview.none');
    if (field === 'categorySlug' || field === 'category') return names.category(String(v));
    if (typeof v === 'boolean') return v ? t('preview.yes') : t('preview.no');
    if (Array.isArray(v)) return v.map((x) => (field === 'tags' ? names.tag(String(x)) : String(x))).join(', ');
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  };
  const fieldName = (field: string) => (i18n.exists(`transactions:fields.${field}`) ? t(`transactions:fields.${field}`) : field);

  if (props.incomplete) return <p className="faint">{t('preview.incomplete')}</p>;
  if (result.error) return <ErrorBanner error={result.error} onRetry={() => void result.refetch()} />;
  return (
    <div className="dry-run-preview" aria-busy={result.isFetching}>
      <p role="status" data-testid="dry-run-summary">
        {data
          ? t(props.batch ? 'preview.summaryBatch' : 'preview.summary', {
              count: data.changed,
              scanned: formatNumber(data.scanned),
            })
          : t('preview.computing')}
      </p>
      {data && data.transactions.length > 0 ? (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the list scrolls; a keyboard reaches it to scroll it
        <section className="dry-run" tabIndex={0} aria-label={t('preview.heading')}>
          <DataTable
            label={t('preview.title')}
            className="compact"
            rows={data.transactions}
            rowKey={(row) => row.id}
            rowProps={(row) => ({ 'data-preview-id': row.id })}
            columns={[
              { id: 'date', header: t('preview.date'), className: 'date', cell: (row) => formatDate(row.date.slice(0, 10)) },
              { id: 'name', header: t('preview.transaction'), cell: (row) => <div className="cell-text wide">{row.name}</div> },
              {
                id: 'change',
                header: t('preview.change'),
                cell: (row) =>
                  row.changes.map((c) => (
                    <div key={c.field} className="change">
                      {fieldName(c.field)}: <span className="faint">{value(c.field, c.before)}</span> →{' '}
                      <strong>{value(c.field, c.after)}</strong>
                    </div>
                  )),
              },
            ]}
          />
        </section>
      ) : null}
      {data?.truncated ? <p className="faint small">{t('preview.truncated', { count: data.transactions.length })}</p> : null}
      {data?.failures.length ? (
        <div className="banner warn" role="note">
          <div className="grow">
            <strong>{t('preview.failures', { count: data.failures.length })}</strong>
            {data.failures.slice(0, 5).map((f) => (
              <small key={`${f.ruleId}-${f.transactionId}`} lang="en">
                {f.message}
              </small>
            ))}
          </div>
        </div>
      ) : null}
    </div>
  );
}
