/** The inbox list's columns: the receipt, the fields read from it, its status and where it stands with a transaction. */
import type { TFunction } from 'i18next';
import type { InboxItem } from '../../../src-shared/contract/inbox';
import type { Column } from '../../components/table/columns';
import { formatAmount, formatDate, formatNumber } from '../../lib/format';
import { type InboxSortColumn, isBusy, receiptName } from './inbox-view';

/** The tone of a status, in the app's toned pill (`pill`, styles.css): being read, to confirm, matched, nothing found. */
const TONE: Partial<Record<InboxItem['status'], 'info' | 'warn' | 'ok' | 'bad'>> = {
  new: 'info',
  processing: 'info',
  analyzing: 'info',
  suggested_match: 'warn',
  done: 'ok',
  no_match: 'bad',
};

export function StatusPill({ status, t }: { status: InboxItem['status']; t: TFunction<'inbox'> }) {
  return (
    <span className={`pill ${TONE[status] ?? ''}`} data-status={status}>
      {t(`status.${status}`)}
    </span>
  );
}

export function vatText(item: Pick<InboxItem, 'taxAmount' | 'taxRate' | 'currency'>, t: TFunction<'inbox'>): string {
  if (item.taxAmount === null && item.taxRate === null) return '—';
  const rate =
    item.taxRate === null ? null : t('percent', { rate: formatNumber(item.taxRate, Number.isInteger(item.taxRate) ? 0 : 1) });
  if (item.taxAmount === null) return rate ?? '—';
  const amount = formatAmount(item.taxAmount, item.currency);
  return rate ? `${amount} (${rate})` : amount;
}

export function inboxColumns(t: TFunction<'inbox'>): Column<InboxItem, InboxSortColumn>[] {
  return [
    {
      id: 'receipt',
      header: t('columns.receipt'),
      sort: 'display_name',
      title: (i) => i.fileName,
      cell: (i) => (
        <div className="cell-text">
          <div className="cell-name">{receiptName(i)}</div>
          {i.displayName ? <div className="cell-sub faint">{i.fileName}</div> : null}
        </div>
      ),
    },
    { id: 'date', header: t('columns.date'), sort: 'date', className: 'date', cell: (i) => (i.date ? formatDate(i.date) : '—') },
    {
      id: 'amount',
      header: t('columns.amount'),
      sort: 'amount',
      numeric: true,
      className: 'money',
      cell: (i) => (i.amount === null ? (isBusy(i.status) ? t('reading') : '—') : formatAmount(i.amount, i.currency)),
    },
    { id: 'vat', header: t('columns.vat'), numeric: true, className: 'money', cell: (i) => vatText(i, t) },
    { id: 'status', header: t('columns.status'), cell: (i) => <StatusPill status={i.status} t={t} /> },
    {
      id: 'match',
      header: t('columns.match'),
      cell: (i) =>
        i.transaction ? (
          <div className="cell-text">{i.transaction.name}</div>
        ) : i.suggestions.length ? (
          <span className="faint">{t('suggestionCount', { count: i.suggestions.length })}</span>
        ) : (
          '—'
        ),
    },
    {
      id: 'received',
      header: t('columns.received'),
      sort: 'created_at',
      className: 'date',
      cell: (i) => formatDate(i.createdAt),
    },
  ];
}
