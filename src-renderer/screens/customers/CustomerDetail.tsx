/**
 * A customer's page (`/customers/<id>`), one click from the list: contact and address, what it owes in each
 * currency (outstanding and overdue), its invoices, its tracker projects, its tags and what happened lately.
 * Edit opens the customer form; New invoice bills this customer.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Customer, customerRoutes } from '../../../src-shared/contract/customers';
import { invoiceRoutes } from '../../../src-shared/contract/invoices';
import { type TrackerProject, trackerRoutes } from '../../../src-shared/contract/tracker';
import { AppLink } from '../../components/AppLink';
import { RecordPage } from '../../components/RecordPage';
import type { Column } from '../../components/table/columns';
import { DataTable } from '../../components/table/DataTable';
import { EmptyState } from '../../components/table/EmptyState';
import { TableFooter } from '../../components/table/TableFooter';
import { ErrorBanner, Kbd } from '../../components/ui';
import { useCursorList } from '../../data/use-cursor-list';
import { useRecord } from '../../data/use-read';
import { formatAmount, formatDate, formatDateTime, formatDuration } from '../../lib/format';
import { useRouter } from '../../lib/router';
import { useScreenKeys } from '../../lib/use-screen-keys';
import { invoiceColumns } from '../invoices/invoice-columns';
import { NewInvoice } from '../invoices/NewInvoice';
import { activityOf } from './activity';
import { CustomerForm } from './CustomerForm';

export function CustomerDetail({ id }: { id: string }) {
  const { t } = useTranslation('customers');
  const record = useRecord(customerRoutes.get, { id });
  const [editing, setEditing] = useState(false);
  const [invoicing, setInvoicing] = useState(false);
  const navigate = useRouter((r) => r.navigate);
  useScreenKeys({ e: () => setEditing(true) }, { enabled: Boolean(record.data) && !editing && !invoicing });

  return (
    <RecordPage record={record} namespace="customers" listPath="/customers" name={(customer) => customer.name}>
      {(c, breadcrumb) => (
        <div className="page customer-detail" data-customer-id={c.id}>
          {breadcrumb}
          <header className="page-header">
            <div>
              <h1>{c.name}</h1>
              <p>
                {[c.contact, c.billingEmail ?? c.email, [c.city, c.countryCode].filter(Boolean).join(', ')]
                  .filter(Boolean)
                  .join(' · ') || t('detail.noContact')}
              </p>
            </div>
            <div className="header-actions">
              <button type="button" className="btn" onClick={() => setEditing(true)}>
                {t('detail.edit')} <Kbd k="E" />
              </button>
              <button type="button" className="btn primary" onClick={() => setInvoicing(true)}>
                {t('detail.newInvoice')}
              </button>
            </div>
          </header>

          <Figures customer={c} />

          <div className="customer-split">
            <div className="customer-main">
              <CustomerInvoices customer={c} />
              <CustomerProjects customerId={c.id} />
            </div>
            <aside className="customer-side" aria-label={t('detail.about')}>
              <ContactCard customer={c} />
              <section className="card padded" aria-labelledby="customer-tags-title">
                <h2 id="customer-tags-title">{t('detail.tags')}</h2>
                {c.tags.length ? (
                  <div className="chips wrap">
                    {c.tags.map((tag) => (
                      <span key={tag.id} className="chip">
                        {tag.name}
                      </span>
                    ))}
                  </div>
                ) : (
                  <p className="faint">{t('detail.noTags')}</p>
                )}
              </section>
              <ActivityCard customer={c} />
            </aside>
          </div>

          {editing ? (
            <CustomerForm customer={c} onClose={() => setEditing(false)} onDeleted={() => navigate('/customers')} />
          ) : null}
          {invoicing ? (
            <NewInvoice customer={c} onClose={() => setInvoicing(false)} onCreated={(inv) => navigate(`/invoices/${inv.id}`)} />
          ) : null}
        </div>
      )}
    </RecordPage>
  );
}

/** What the customer was invoiced, paid and owes, per currency (never converted). */
function Figures({ customer: c }: { customer: Customer }) {
  const { t } = useTranslation('customers');
  const rows = c.finance.byCurrency;
  if (rows.length === 0)
    return (
      <p className="muted" data-testid="customer-figures">
        {c.finance.draftCount ? t('detail.onlyDrafts', { count: c.finance.draftCount }) : t('detail.noInvoices')}
      </p>
    );
  return (
    <section className="customer-figures" aria-label={t('detail.figures')} data-testid="customer-figures">
      {rows.map((r) => (
        <dl key={r.currency} className="tiles" aria-label={t('detail.figuresIn', { currency: r.currency })}>
          <div className="tile">
            <dt>{t('detail.invoiced', { count: r.invoiceCount })}</dt>
            <dd>{formatAmount(r.invoiced, r.currency)}</dd>
          </div>
          <div className="tile ok">
            <dt>{t('detail.paid')}</dt>
            <dd>{formatAmount(r.paid, r.currency)}</dd>
          </div>
          <div className="tile info">
            <dt>{t('detail.outstanding')}</dt>
            <dd>{formatAmount(r.outstanding, r.currency)}</dd>
          </div>
          <div className={`tile ${r.overdue > 0 ? 'bad' : ''}`}>
            <dt>{t('detail.overdue')}</dt>
            <dd>{formatAmount(r.overdue, r.currency)}</dd>
          </div>
        </dl>
      ))}
    </section>
  );
}

function CustomerInvoices({ customer }: { customer: Customer }) {
  const { t } = useTranslation('customers');
  const { t: ti } = useTranslation('invoices');
  const columns = useMemo(() => invoiceColumns(ti, { customer: false }), [ti]);
  const list = useCursorList(invoiceRoutes.list, { customers: [customer.id], pageSize: 10, sort: ['issue_date', 'desc'] });
  const navigate = useRouter((r) => r.navigate);
  return (
    <section className="card" aria-labelledby="customer-invoices-title">
      <h2 id="customer-invoices-title" className="card-title">
        {t('detail.invoices')}
      </h2>
      {list.error ? <ErrorBanner error={list.error} onRetry={list.refetch} /> : null}
      <DataTable
        label={t('detail.invoicesOf', { name: customer.name })}
        className="invoices-table"
        columns={columns}
        rows={list.items}
        rowKey={(inv) => inv.id}
        rowProps={(inv) => ({ 'data-invoice-id': inv.id, className: inv.status === 'overdue' ? 'attention' : '' })}
        onOpen={(inv) => navigate(`/invoices/${inv.id}`)}
        loading={list.isLoading}
        skeletonRows={3}
        wrap
        hideWhenEmpty
        empty={<EmptyState className="small-empty" title={t('detail.noInvoicesYet')} />}
      />
      {list.hasNextPage ? <TableFooter status={t('detail.latestInvoices', { count: list.items.length })} more={list} /> : null}
    </section>
  );
}

function CustomerProjects({ customerId }: { customerId: string }) {
  const { t } = useTranslation('customers');
  const list = useCursorList(trackerRoutes.listProjects, { customers: [customerId], pageSize: 20, sort: ['created_at', 'desc'] });
  const navigate = useRouter((r) => r.navigate);
  const columns: Column<TrackerProject>[] = [
    { id: 'name', header: t('detail.project'), cell: (p) => <div className="cell-name">{p.name}</div> },
    { id: 'status', header: t('detail.projectStatus'), cell: (p) => t(`detail.projectStatuses.${p.status}`) },
    {
      id: 'tracked',
      header: t('detail.tracked'),
      numeric: true,
      className: 'num',
      cell: (p) => formatDuration(p.totalDuration * 1000),
    },
    {
      id: 'unbilled',
      header: t('detail.unbilled'),
      numeric: true,
      className: (p) => `money ${p.unbilledAmount ? 'owed' : 'zero'}`,
      cell: (p) => (p.unbilledDuration ? formatAmount(p.unbilledAmount, p.currency) : '—'),
    },
  ];
  return (
    <section className="card" aria-labelledby="customer-projects-title">
      <h2 id="customer-projects-title" className="card-title">
        {t('detail.projects')}
      </h2>
      {list.error ? <ErrorBanner error={list.error} onRetry={list.refetch} /> : null}
      <DataTable
        label={t('detail.projects')}
        columns={columns}
        rows={list.items}
        rowKey={(p) => p.id}
        rowProps={(p) => ({ 'data-project-id': p.id })}
        onOpen={(p) => navigate(`/time?project=${encodeURIComponent(p.id)}`)}
        loading={list.isLoading}
        skeletonRows={2}
        wrap
        hideWhenEmpty
        empty={<EmptyState className="small-empty" title={t('detail.noProjects')} />}
      />
    </section>
  );
}

function ContactCard({ customer: c }: { customer: Customer }) {
  const { t } = useTranslation('customers');
  const address = [c.addressLine1, c.addressLine2, [c.zip, c.city].filter(Boolean).join(' '), c.state, c.country].filter(Boolean);
  const rows: [string, React.ReactNode][] = [];
  if (c.contact) rows.push([t('form.contact'), c.contact]);
  if (c.email)
    rows.push([
      t('form.email'),
      <a key="email" href={`mailto:${c.email}`}>
        {c.email}
      </a>,
    ]);
  if (c.billingEmail)
    rows.push([
      t('form.billingEmail'),
      <a key="billing" href={`mailto:${c.billingEmail}`}>
        {c.billingEmail}
      </a>,
    ]);
  if (c.phone) rows.push([t('form.phone'), c.phone]);
  if (c.website) rows.push([t('form.website'), c.website]);
  if (address.length)
    rows.push([
      t('form.address'),
      <span key="address" className="address">
        {address.map((line) => (
          <span key={line}>{line}</span>
        ))}
      </span>,
    ]);
  if (c.vatNumber) rows.push([t('form.vatNumber'), c.vatNumber]);
  if (c.peppolId) rows.push([t('form.peppolId'), c.peppolId]);
  if (c.eInvoiceFormat) rows.push([t('form.eInvoiceFormat'), t(`einvoice:formats.${c.eInvoiceFormat}`)]);
  if (c.buyerReference) rows.push([t('form.buyerReference'), c.buyerReference]);
  if (c.note)
    rows.push([
      t('form.note'),
      <span key="note" className="pre">
        {c.note}
      </span>,
    ]);
  return (
    <section className="card padded" aria-labelledby="customer-contact-title">
      <h2 id="customer-contact-title">{t('detail.contact')}</h2>
      {rows.length ? (
        <dl className="facts tight stacked">
          {rows.map(([label, value]) => (
            <div key={label} className="fact">
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="faint">{t('detail.noContact')}</p>
      )}
    </section>
  );
}

function ActivityCard({ customer: c }: { customer: Customer }) {
  const { t } = useTranslation('customers');
  const invoices = useCursorList(invoiceRoutes.list, { customers: [c.id], pageSize: 20, sort: ['created_at', 'desc'] });
  const events = activityOf(c, invoices.items, 8);
  return (
    <section className="card padded" aria-labelledby="customer-activity-title">
      <h2 id="customer-activity-title">{t('detail.activity')}</h2>
      <p className="faint small">
        {t('detail.lastActivity', { at: formatDateTime(c.activity.lastActivityAt) })}
        {c.activity.lastPaymentAt ? ` · ${t('detail.lastPayment', { day: formatDate(c.activity.lastPaymentAt) })}` : ''}
      </p>
      <ol className="activity">
        {events.map((e) => (
          <li key={`${e.kind}-${e.invoice?.id ?? ''}-${e.at}`}>
            <span className="faint small">{formatDate(e.at)}</span>{' '}
            {e.invoice ? (
              <>
                {t(`detail.events.${e.kind}`)}{' '}
                <AppLink to={`/invoices/${e.invoice.id}`}>{e.invoice.invoiceNumber ?? t('invoices:numberPending')}</AppLink>{' '}
                <span className="money small">{formatAmount(e.invoice.amount, e.invoice.currency)}</span>
              </>
            ) : (
              t('detail.events.created')
            )}
          </li>
        ))}
      </ol>
      {c.invoiceCount > invoices.items.length && !invoices.isLoading ? (
        <p className="faint small">{t('detail.olderActivity')}</p>
      ) : null}
    </section>
  );
}
