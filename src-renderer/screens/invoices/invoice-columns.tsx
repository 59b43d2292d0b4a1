/**
 * The invoice list's columns, also used by a customer's invoices: the number and the customer on every row, the
 * status with the e-mail's state under it, the dates and the amount in the invoice's currency.
 */
import type { TFunction } from 'i18next';
import type { Invoice } from '../../../src-shared/contract/invoices';
import type { Column } from '../../components/table/columns';
import { formatAmount, formatDate } from '../../lib/format';
import { DeliveryLine, StatusPill } from './InvoiceStatus';
import { shownStatus } from './invoice-commands';
import type { ListSort } from './list-view';

export function invoiceColumns(
  t: TFunction<'invoices'>,
  options: { customer?: boolean } = {},
): Column<Invoice, ListSort['column']>[] {
  const columns: (Column<Invoice, ListSort['column']> | null)[] = [
    {
      id: 'number',
      header: t('columns.number'),
      sort: 'invoice_number',
      cell: (inv) => <span className="inv-number">{inv.invoiceNumber ?? t('numberPending')}</span>,
    },
    options.customer === false
      ? null
      : {
          id: 'customer',
          header: t('columns.customer'),
          sort: 'customer',
          cell: (inv) => (
            <>
              <div className="cell-name" title={inv.customerName ?? undefined}>
                {inv.customerName ?? t('noCustomer')}
              </div>
              <div className="cell-sub">{inv.customer?.billingEmail ?? inv.customer?.email ?? '—'}</div>
            </>
          ),
        },
    {
      id: 'status',
      header: t('columns.status'),
      sort: 'status',
      cell: (inv) => (
        <>
          <StatusPill status={shownStatus(inv)} />
          <DeliveryLine delivery={inv.delivery} />
        </>
      ),
    },
    {
      id: 'issued',
      header: t('columns.issued'),
      sort: 'issue_date',
      className: 'date',
      cell: (inv) => formatDate(inv.issueDate),
    },
    {
      id: 'due',
      header: t('columns.due'),
      sort: 'due_date',
      className: (inv) => (inv.status === 'overdue' ? 'date overdue' : 'date'),
      cell: (inv) => formatDate(inv.dueDate),
    },
    {
      id: 'amount',
      header: t('columns.amount'),
      sort: 'amount',
      numeric: true,
      className: 'money',
      cell: (inv) => formatAmount(inv.amount, inv.currency),
    },
  ];
  return columns.filter((c): c is Column<Invoice, ListSort['column']> => c !== null);
}
