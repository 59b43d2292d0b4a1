/** Every file imported, newest first, with undo (after a confirmation) of what an import created. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import { bankAccountRoutes } from '../../../src-shared/contract/bank-accounts';
import { type ImportBatch, importRoutes } from '../../../src-shared/contract/import';
import { AppLink } from '../../components/AppLink';
import type { Column } from '../../components/table/columns';
import { DataTable } from '../../components/table/DataTable';
import { ConfirmDialog, ErrorBanner } from '../../components/ui';
import { useCursorList } from '../../data/use-cursor-list';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { formatDateTime, formatNumber } from '../../lib/format';
import { useToasts } from '../../stores/toasts';

interface UndoAsked {
  id: string;
  name: string;
  created: number;
}

const count = (id: string, header: string, of: (c: ImportBatch['counts']) => number): Column<ImportBatch> => ({
  id,
  header,
  numeric: true,
  className: 'num',
  cell: (b) => formatNumber(of(b.counts)),
});

export function Batches() {
  const { t } = useTranslation('import');
  const batches = useCursorList(importRoutes.listBatches, { pageSize: 20 });
  const accounts = useRead(bankAccountRoutes.list, { query: {} });
  const undo = useWrite(importRoutes.undoBatch);
  const toast = useToasts();
  const [confirm, setConfirm] = useState<UndoAsked | null>(null);
  const accountName = (id: string) => accounts.data?.data.find((a) => a.id === id)?.name ?? '—';
  const columns: Column<ImportBatch>[] = [
    { id: 'file', header: t('batches.file'), cell: (b) => <div className="cell-text wide">{b.fileName ?? b.format}</div> },
    { id: 'account', header: t('account'), cell: (b) => accountName(b.bankAccountId) },
    { id: 'imported', header: t('batches.imported'), className: 'date', cell: (b) => formatDateTime(b.createdAt) },
    count('new', t('batches.new'), (c) => c.created),
    count('matched', t('batches.matched'), (c) => c.linked),
    count('duplicates', t('batches.duplicates'), (c) => c.duplicate),
    count('review', t('batches.review'), (c) => c.review),
    {
      id: 'status',
      header: t('batches.status'),
      cell: (b) =>
        b.status === 'undone' ? (
          <span className="faint">{t('batches.undoneAt', { at: formatDateTime(b.undoneAt) })}</span>
        ) : (
          t('batches.done')
        ),
    },
    {
      id: 'actions',
      header: t('common:actions'),
      srOnlyHeader: true,
      className: 'num',
      cell: (b) =>
        b.status === 'committed' ? (
          <div className="row-actions">
            <AppLink className="btn small" to={`/transactions?state=all&batch=${encodeURIComponent(b.id)}`}>
              {t('batches.show')}
              <span className="sr-only"> {b.fileName}</span>
            </AppLink>
            <button
              type="button"
              className="btn small"
              onClick={() => setConfirm({ id: b.id, name: b.fileName ?? t('batches.thisImport'), created: b.counts.created })}
            >
              {t('batches.undo')}
              <span className="sr-only"> {b.fileName}</span>
            </button>
          </div>
        ) : null,
    },
  ];
  return (
    <section className="card" aria-label={t('batches.title')}>
      <div className="chart-head padded">
        <h2>{t('batches.title')}</h2>
        <span className="faint small">{t('batches.intro')}</span>
      </div>
      {batches.error ? <ErrorBanner error={batches.error} onRetry={batches.refetch} /> : null}
      <DataTable
        label={t('batches.label')}
        className="compact"
        wrap
        hideWhenEmpty
        empty={<p className="faint padded">{t('batches.none')}</p>}
        loading={batches.isLoading}
        columns={columns}
        rows={batches.items}
        rowKey={(b) => b.id}
        rowProps={(b) => ({ 'data-batch-id': b.id })}
      />
      {confirm ? (
        <ConfirmDialog
          title={t('batches.undoTitle', { name: confirm.name })}
          body={<p>{t('batches.undoText', { count: confirm.created })}</p>}
          confirmLabel={t('batches.undoConfirm')}
          danger
          busy={undo.isPending}
          onCancel={() => setConfirm(null)}
          onConfirm={() =>
            undo
              .mutateAsync({ params: { id: confirm.id } })
              .then(() => toast.show(t('batches.undone', { name: confirm.name })))
              .catch((err) =>
                toast.error(
                  err,
                  err instanceof ApiClientError && err.status === 409 ? t('batches.cannotUndo') : t('batches.undoFailed'),
                ),
              )
              .finally(() => setConfirm(null))
          }
        />
      ) : null}
    </section>
  );
}
