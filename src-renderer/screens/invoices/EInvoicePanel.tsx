/**
 * An invoice's e-invoice on its page (docs/decisions/0160-e-invoices.md): the format its customer gets (the
 * customer's choice, else the team's default), the EN 16931 check of that format said plainly before anything is
 * sent — passes, or each failing rule with a way to its field — and the download menu. Another format can be
 * checked from the select; a format the server refused to make when downloaded becomes the one checked (the
 * schema's findings, which only making the file finds, are in the refusal's toast).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { customerRoutes } from '../../../src-shared/contract/customers';
import { type Invoice, invoiceRoutes } from '../../../src-shared/contract/invoices';
import type { EInvoiceFormat } from '../../../src-shared/domain/einvoice/model';
import { EInvoiceFormatField } from '../../components/EInvoiceFormatField';
import { ErrorBanner } from '../../components/ui';
import { useRead, useRecord } from '../../data/use-read';
import { EInvoiceHandOff } from './EInvoiceHandOff';
import { EInvoiceMenu } from './EInvoiceMenu';
import { EInvoiceRules } from './EInvoiceRules';
import type { FixTarget } from './einvoice-failures';

export function EInvoicePanel({ invoice, onFix }: { invoice: Invoice; onFix: (target: FixTarget) => void }) {
  const { t } = useTranslation('einvoice');
  /** A format checked instead of the chosen one; null: the chosen one. */
  const [asked, setAsked] = useState<EInvoiceFormat | null>(null);
  const check = useRead(invoiceRoutes.eInvoiceCheck, { params: { id: invoice.id }, query: asked ? { format: asked } : {} });
  const customer = useRecord(customerRoutes.get, { id: invoice.customerId ?? '' }, { enabled: Boolean(invoice.customer) });
  const result = check.data;
  const format = result?.format ?? null;
  const name = format ? t(`formats.${format}`) : '';
  const failures = result?.failures ?? [];

  let chosen: string | null = null;
  if (!asked && format)
    chosen =
      customer.data?.eInvoiceFormat === format
        ? t('panel.chosenByCustomer', { format: name, name: invoice.customerName ?? '' })
        : t('panel.chosenByTeam', { format: name });

  return (
    <section className="card padded einv-panel" aria-labelledby="einv-title" data-format={format ?? ''}>
      <div className="einv-head">
        <h2 id="einv-title">{t('panel.title')}</h2>
        <EInvoiceMenu invoice={invoice} onRefused={setAsked} />
      </div>
      <div className="einv-format">
        <EInvoiceFormatField
          label={t('panel.checkFor')}
          value={format ?? ''}
          onChange={(value) => setAsked((value || null) as EInvoiceFormat | null)}
          emptyLabel={format ? undefined : '—'}
        />
        {chosen ? <p className="muted">{chosen}</p> : null}
      </div>
      {check.error ? (
        <ErrorBanner error={check.error} onRetry={() => void check.refetch()} />
      ) : !result ? (
        <p className="muted">{t('panel.checking')}</p>
      ) : !format ? (
        <NoFormat customerId={invoice.customer ? invoice.customerId : null} onFix={onFix} />
      ) : failures.length === 0 && result.ok ? (
        <p className="einv-ok" role="status">
          <span aria-hidden="true">✓ </span>
          {t('panel.ready', { format: name })}
        </p>
      ) : failures.length === 0 ? (
        <p className="muted">{t('panel.unavailable', { reason: result.message ?? '' })}</p>
      ) : (
        <>
          <p className="einv-failing" role="status">
            {t('panel.failing', { format: name, count: failures.length })}
          </p>
          <EInvoiceRules failures={failures} onFix={onFix} />
        </>
      )}
      <EInvoiceHandOff invoiceId={invoice.id} />
    </section>
  );
}

function NoFormat({ customerId, onFix }: { customerId: string | null; onFix: (target: FixTarget) => void }) {
  const { t } = useTranslation('einvoice');
  return (
    <div className="einv-none">
      <p className="muted">{t('panel.noFormat')}</p>
      <div className="einv-none-actions">
        {customerId ? (
          <button type="button" className="btn small" onClick={() => onFix({ kind: 'customer', field: 'eInvoiceFormat' })}>
            {t('panel.chooseOnCustomer')}
          </button>
        ) : null}
        <button type="button" className="btn small" onClick={() => onFix({ kind: 'team', field: 'eInvoiceFormat' })}>
          {t('panel.chooseForTeam')}
        </button>
      </div>
    </div>
  );
}
