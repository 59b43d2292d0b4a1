/**
 * The frame of a record's page (`/invoices/<id>`, `/customers/<id>`): the way back to its list as a breadcrumb, a
 * skeleton while it loads, "does not exist" for a 404 (deleted meanwhile, or a stale link), the error otherwise,
 * and the page itself once the record is there.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiClientError } from '../../src-shared/api-client';
import { AppLink } from './AppLink';
import { EmptyState } from './table/EmptyState';
import { ErrorBanner } from './ui';

export interface RecordPageLabels {
  /** The breadcrumb navigation's name. */
  breadcrumb: string;
  gone: string;
  goneText: string;
  backToList: string;
}

export function RecordPage<T>(props: {
  record: UseQueryResult<T, Error>;
  list: { path: string; title: string };
  /** The record's name in the breadcrumb. */
  name: (record: T) => string;
  labels: RecordPageLabels;
  children: (record: T, breadcrumb: ReactNode) => ReactNode;
}) {
  const { record, list, labels } = props;
  const data = record.data;
  const breadcrumb = (
    <nav className="breadcrumb" aria-label={labels.breadcrumb}>
      <AppLink to={list.path}>{list.title}</AppLink>
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
            <EmptyState title={labels.gone} action={<AppLink to={list.path}>{labels.backToList}</AppLink>}>
              {labels.goneText}
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
