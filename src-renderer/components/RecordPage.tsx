/**
 * The frame of a record's page (`/invoices/<id>`, `/customers/<id>`): the way back to its list as a breadcrumb, a
 * skeleton while it loads, "does not exist" for a 404 (deleted meanwhile, or a stale link), the error otherwise,
 * and the page itself once the record is there.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../src-shared/api-client';
import { AppLink } from './AppLink';
import { EmptyState } from './table/EmptyState';
import { ErrorBanner } from './ui';

export function RecordPage<T>(props: {
  record: UseQueryResult<T, Error>;
  /**
   * The screen's i18n namespace: its `title` names the list, and `detail.breadcrumb`, `detail.gone`,
   * `detail.goneText` and `detail.backToList` the frame.
   */
  namespace: string;
  /** The list's path, the breadcrumb's way back. */
  listPath: string;
  /** The record's name in the breadcrumb. */
  name: (record: T) => string;
  children: (record: T, breadcrumb: ReactNode) => ReactNode;
}) {
  const { record, listPath } = props;
  const { t } = useTranslation(props.namespace);
  const data = record.data;
  const breadcrumb = (
    <nav className="breadcrumb" aria-label={t('detail.breadcrumb')}>
      <AppLink to={listPath}>{t('title')}</AppLink>
      <span aria-hidden="true"> / </span>
      <span aria-current="page">{data === undefined ? '…' : props.name(data)}</span>
    </nav>
  );
  if (record.error) {
    const gone = record.error instanceof ApiClientError && record.error.status === 404;
    return (
      <div className="page">
        {breadcrumb}
        {gone ? (
          <div className="card">
            <EmptyState title={t('detail.gone')} action={<AppLink to={listPath}>{t('detail.backToList')}</AppLink>}>
              {t('detail.goneText')}
            </EmptyState>
          </div>
        ) : (
          <ErrorBanner error={record.error} onRetry={() => void record.refetch()} />
        )}
      </div>
    );
  }
  if (data === undefined)
    return (
      <div className="page" aria-busy="true">
        {breadcrumb}
        <div className="panel-skeleton">
          {[0, 1, 2, 3].map((i) => (
            <span key={i} className="bone" />
          ))}
        </div>
      </div>
    );
  return <>{props.children(data, breadcrumb)}</>;
}
