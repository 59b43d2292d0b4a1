/** Every file imported, newest first, with undo (after a confirmation) of what an import created. */
import { useState } from 'react';
import { ApiClientError } from '../../../src-shared/api-client';
import { bankAccountRoutes } from '../../../src-shared/contract/bank-accounts';
import { type ImportBatch, importRoutes } from '../../../src-shared/contract/import';
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
  const batches = useCursorList(importRoutes.listBatches, { pageSize: 20 });
  const accounts = useRead(bankAccountRoutes.list, { query: {} });
  const undo = useWrite(importRoutes.undoBatch);
  const toast = useToasts();
  const [confirm, setConfirm] = useState<UndoAsked | null>(null);
  const accountName = (id: string) => accounts.data?.data.find((a) => a.id === id)?.name ?? '—';
  const columns: Column<ImportBatch>[] = [
    { id: 'file', header: 'File', cell: (b) => <div className="cell-text wide">{b.fileName ?? b.format}</div> },
    { id: 'account', header: 'Account', cell: (b) => accountName(b.bankAccountId) },
    { id: 'imported', header: 'Imported', className: 'date', cell: (b) => formatDateTime(b.createdAt) },
    count('new', 'New', (c) => c.created),
    count('matched', 'Matched', (c) => c.linked),
    count('duplicates', 'Duplicates', (c) => c.duplicate),
    count('review', 'Review', (c) => c.review),
    {
      id: 'status',
      header: 'Status',
      cell: (b) => (b.status === 'undone' ? <span className="faint">Undone {formatDateTime(b.undoneAt)}</span> : 'Imported'),
    },
    {
      id: 'actions',
      header: 'Actions',
      srOnlyHeader: true,
      className: 'num',
      cell: (b) =>
        b.status === 'committed' ? (
          <button
            type="button"
            className="btn small"
            onClick={() => setConfirm({ id: b.id, name: b.fileName ?? 'this import', created: b.counts.created })}
          >
            Undo<span className="sr-only"> {b.fileName}</span>
          </button>
        ) : null,
    },
  ];
  return (
    <section className="card" aria-label="Imports">
      <div className="chart-head padded">
        <h2>Imports</h2>
        <span className="faint small">Every file imported, newest first. Undo removes what an import created.</span>
      </div>
      {batches.error ? <ErrorBanner error={batches.error} onRetry={batches.refetch} /> : null}
      <DataTable
        label="Import batches"
        className="compact"
        wrap
        hideWhenEmpty
        empty={<p className="faint padded">No file imported yet.</p>}
        loading={batches.isLoading}
        columns={columns}
        rows={batches.items}
        rowKey={(b) => b.id}
        rowProps={(b) => ({ 'data-batch-id': b.id })}
      />
      {confirm ? (
        <ConfirmDialog
          title={`Undo the import of ${confirm.name}?`}
          body={
            <p>
              The {formatNumber(confirm.created)} transactions it created are removed and the hand-entered ones it matched get
              their own facts back.
            </p>
          }
          confirmLabel="Undo import"
          danger
          busy={undo.isPending}
          onCancel={() => setConfirm(null)}
          onConfirm={() =>
            undo
              .mutateAsync({ params: { id: confirm.id } })
              .then(() => toast.show(`Undone: ${confirm.name}`))
              .catch((err) =>
                toast.error(
                  err,
                  err instanceof ApiClientError && err.status === 409 ? 'It cannot be undone' : 'Could not undo the import',
                ),
              )
              .finally(() => setConfirm(null))
          }
        />
      ) : null}
    </section>
  );
}
