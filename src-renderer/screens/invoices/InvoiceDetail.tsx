/**
 * An invoice's page (`/invoices/<id>`): its number, status and customer at the top with what can be done next; how
 * its latest e-mail stands; payments the matcher suggests for it; what it has received and what is still open; its
 * e-invoice (format, check, downloads); the customer's details, the dates, the lines and totals with the VAT of each
 * rate; and beside them the PDF as the customer gets it. A failed check opens the customer's form, the team's
 * e-invoice settings or — for a draft — the draft's own form over the page, on the field to fix; Team settings are
 * linked; the check runs again when they are saved.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { customerRoutes } from '../../../src-shared/contract/customers';
import { type Invoice, invoiceRoutes } from '../../../src-shared/contract/invoices';
import { trackerRoutes } from '../../../src-shared/contract/tracker';
import { AppLink } from '../../components/AppLink';
import { Drawer } from '../../components/Drawer';
import { RecordPage } from '../../components/RecordPage';
import { useRecord } from '../../data/use-read';
import { formatAmount, formatDate, formatNumber } from '../../lib/format';
import { useRouter } from '../../lib/router';
import { CustomerForm } from '../customers/CustomerForm';
import { EInvoiceSettingsForm } from '../settings/EInvoiceSettings';
import { EInvoicePanel } from './EInvoicePanel';
import type { FixTarget } from './einvoice-failures';
import { InvoiceCommands } from './InvoiceCommands';
import { DeliveryBanner, StatusPill } from './InvoiceStatus';
import { InvoiceSums } from './InvoiceSums';
import { shownStatus } from './invoice-commands';
import { invoiceVatGroups } from './invoice-form';
import { EditInvoice } from './NewInvoice';
import { PaymentSuggestions } from './PaymentSuggestions';
import { PaymentsCard } from './PaymentsCard';
import { PdfPreview } from './PdfPreview';

export function InvoiceDetail({ id }: { id: string }) {
  const { t } = useTranslation('invoices');
  const record = useRecord(invoiceRoutes.get, { id });
  const navigate = useRouter((r) => r.navigate);
  const [fixing, setFixing] = useState<FixTarget | null>(null);
  const [editing, setEditing] = useState(false);
  const fix = (target: FixTarget) =>
    target.kind === 'settings' ? navigate(target.path) : target.kind === 'invoice' ? setEditing(true) : setFixing(target);
  return (
    <RecordPage record={record} namespace="invoices" listPath="/invoices" name={(inv) => inv.invoiceNumber ?? t('numberPending')}>
      {(inv, breadcrumb) => (
        <div className="page inv-detail" data-invoice-id={inv.id}>
          {breadcrumb}
          <header className="page-header">
            <div>
              <h1 className="inv-title">
                <span className="inv-number">{inv.invoiceNumber ?? t('numberPending')}</span>{' '}
                <StatusPill status={shownStatus(inv)} />
              </h1>
              <p>
                {inv.customerId && inv.customer ? (
                  <AppLink to={`/customers/${inv.customerId}`}>{inv.customerName}</AppLink>
                ) : (
                  (inv.customerName ?? t('noCustomer'))
                )}{' '}
                · <span className="money">{formatAmount(inv.amount, inv.currency)}</span> ·{' '}
                {t('detail.dueOn', { day: formatDate(inv.dueDate) })}
              </p>
            </div>
            <InvoiceCommands invoice={inv} onFix={fix} onEdit={() => setEditing(true)} />
          </header>

          {inv.delivery ? <DeliveryBanner delivery={inv.delivery} /> : null}
          {inv.status === 'unpaid' || inv.status === 'overdue' ? <PaymentSuggestions invoiceId={inv.id} /> : null}

          <div className="inv-split">
            <div className="inv-main">
              <PaymentsCard invoice={inv} />
              <EInvoicePanel invoice={inv} onFix={fix} />
              <div className="inv-cards">
                <CustomerCard invoice={inv} />
                <DatesCard invoice={inv} />
              </div>
              <LinesCard invoice={inv} />
            </div>
            <PdfPreview invoice={inv} />
          </div>
          {fixing ? <FixDrawer target={fixing} invoice={inv} onClose={() => setFixing(null)} /> : null}
          {editing && inv.status === 'draft' ? <EditInvoice invoice={inv} onClose={() => setEditing(false)} /> : null}
        </div>
      )}
    </RecordPage>
  );
}

/** The form where a failed e-invoice rule is fixed, over the invoice: the customer's, or the team's e-invoice settings. */
function FixDrawer({ target, invoice, onClose }: { target: FixTarget; invoice: Invoice; onClose: () => void }) {
  const { t } = useTranslation('invoices');
  const customer = useRecord(
    customerRoutes.get,
    { id: invoice.customerId ?? '' },
    { enabled: target.kind === 'customer' && Boolean(invoice.customer) },
  );
  if (target.kind === 'customer')
    return customer.data ? <CustomerForm customer={customer.data} focusField={target.field} onClose={onClose} /> : null;
  if (target.kind !== 'team') return null;
  return (
    <Drawer title={t('einvoice:fix.teamTitle')} onClose={onClose}>
      <div className="drawer-body">
        <EInvoiceSettingsForm focusField={target.field} onSaved={onClose} />
      </div>
    </Drawer>
  );
}

function CustomerCard({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation('invoices');
  const customer = useRecord(customerRoutes.get, { id: invoice.customerId ?? '' }, { enabled: Boolean(invoice.customer) });
  const c = customer.data;
  const address = c
    ? [c.addressLine1, c.addressLine2, [c.zip, c.city].filter(Boolean).join(' '), c.state, c.country].filter(Boolean)
    : [];
  return (
    <section className="card padded" aria-labelledby="inv-customer-title">
      <h2 id="inv-customer-title">{t('detail.billTo')}</h2>
      <div className="inv-customer">
        <div className="cell-name">{invoice.customerName ?? t('noCustomer')}</div>
        {c?.contact ? <div>{c.contact}</div> : null}
        {address.map((line) => (
          <div key={line}>{line}</div>
        ))}
        {invoice.customer?.billingEmail || invoice.customer?.email ? (
          <div className="faint">{invoice.customer.billingEmail ?? invoice.customer.email}</div>
        ) : null}
        {c?.vatNumber ? <div className="faint">{t('detail.vatNumber', { number: c.vatNumber })}</div> : null}
        {!invoice.customer && invoice.customerId ? <div className="faint">{t('detail.customerDeleted')}</div> : null}
      </div>
    </section>
  );
}

function DatesCard({ invoice: inv }: { invoice: Invoice }) {
  const { t } = useTranslation('invoices');
  const project = useRecord(
    trackerRoutes.getProject,
    { id: inv.trackerProjectId ?? '' },
    { enabled: Boolean(inv.trackerProjectId) },
  );
  const rows: [string, React.ReactNode][] = [
    [t('detail.issued'), formatDate(inv.issueDate)],
    [
      t('detail.due'),
      <span key="due" className={inv.status === 'overdue' ? 'overdue' : undefined}>
        {formatDate(inv.dueDate)}
      </span>,
    ],
  ];
  if (inv.scheduledAt) rows.push([t('detail.scheduled'), formatDate(inv.scheduledAt)]);
  if (inv.sentAt) rows.push([t('detail.sent'), formatDate(inv.sentAt)]);
  if (inv.reminderSentAt) rows.push([t('detail.reminded'), formatDate(inv.reminderSentAt)]);
  if (inv.paidAt) rows.push([t('detail.paid'), formatDate(inv.paidAt)]);
  if (inv.payment)
    rows.push([
      t('detail.payment'),
      t(`detail.matchedBy.${inv.payment.matchedBy}`, { amount: formatAmount(inv.payment.amount, inv.payment.currency) }),
    ]);
  if (inv.canceledAt) rows.push([t('detail.canceled'), formatDate(inv.canceledAt)]);
  if (inv.refundedAt) rows.push([t('detail.refunded'), formatDate(inv.refundedAt)]);
  if (inv.trackerProjectId)
    rows.push([
      t('detail.fromProject'),
      <AppLink key="project" to={`/time?project=${inv.trackerProjectId}`}>
        {project.data?.name ?? '…'}
      </AppLink>,
    ]);
  return (
    <section className="card padded" aria-labelledby="inv-dates-title">
      <h2 id="inv-dates-title">{t('detail.dates')}</h2>
      <dl className="facts tight">
        {rows.map(([label, value]) => (
          <div key={label} className="fact">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function LinesCard({ invoice: inv }: { invoice: Invoice }) {
  const { t } = useTranslation('invoices');
  return (
    <section className="card padded" aria-labelledby="inv-lines-title">
      <h2 id="inv-lines-title">{t('detail.lines')}</h2>
      <div className="table-wrap">
        <table className="data compact" aria-labelledby="inv-lines-title">
          <thead>
            <tr>
              <th scope="col">{t('form.line.name')}</th>
              <th scope="col" className="num">
                {t('form.line.quantity')}
              </th>
              <th scope="col" className="num">
                {t('form.line.price')}
              </th>
              <th scope="col" className="num">
                {t('form.line.vat')}
              </th>
              <th scope="col" className="num">
                {t('form.line.amount')}
              </th>
            </tr>
          </thead>
          <tbody>
            {inv.lineItems.map((line, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: lines have no id; their order is their identity
              <tr key={i}>
                <td>{line.name}</td>
                <td className="num">
                  {formatNumber(line.quantity, Number.isInteger(line.quantity) ? 0 : 2)} {line.unit ?? ''}
                </td>
                <td className="money">{formatAmount(line.price, inv.currency)}</td>
                <td className="num">{vatOf(inv, line)}</td>
                <td className="money">{formatAmount(line.amount, inv.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <InvoiceSums
        currency={inv.currency}
        sums={{ subtotal: inv.subtotal, vat: inv.vat, tax: inv.tax, discount: inv.discount, total: inv.amount }}
        vatRate={inv.template.includeVat ? inv.template.vatRate : null}
        vatGroups={invoiceVatGroups(inv)}
      />
      {inv.note ? (
        <div className="inv-note">
          <h3>{t('detail.note')}</h3>
          <p>{inv.note}</p>
        </div>
      ) : null}
    </section>
  );
}

/** A line's VAT rate as printed: its own, else the invoice's; none when the invoice charges no VAT. */
function vatOf(inv: Invoice, line: Invoice['lineItems'][number]): string {
  if (!inv.template.includeVat) return '—';
  const rate = line.vat ?? inv.template.vatRate;
  return `${formatNumber(rate, Number.isInteger(rate) ? 0 : 2)} %`;
}
