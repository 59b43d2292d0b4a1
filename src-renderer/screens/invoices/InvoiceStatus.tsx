/** An invoice's status as a pill, and how its latest e-mail stands, in words (a queued e-mail is said to wait). */
import { useTranslation } from 'react-i18next';
import type { Invoice, InvoiceDelivery } from '../../../src-shared/contract/invoices';
import { AppLink } from '../../components/AppLink';
import { formatDateTime } from '../../lib/format';
import { deliveryTone, type ShownStatus, statusTone } from './invoice-commands';

/** The status as a pill: "Not sent yet" for an issued invoice whose e-mail has not left (invoice-commands.ts). */
export function StatusPill({ status }: { status: ShownStatus }) {
  const { t } = useTranslation('invoices');
  return (
    <span className={`pill ${statusTone(status)}`} title={t(`status.${status}`)}>
      {t(`status.${status}`)}
    </span>
  );
}

/** One line under a list row: the e-mail's state ("Waiting for sync"), when there is one. */
export function DeliveryLine({ delivery }: { delivery: Invoice['delivery'] }) {
  const { t } = useTranslation('invoices');
  if (!delivery) return null;
  const { tone } = deliveryTone(delivery);
  return (
    <div className={`cell-sub delivery-${tone}`} data-delivery={delivery.state}>
      {t(`delivery.short.${delivery.kind}.${delivery.state}`)}
    </div>
  );
}

/** The latest e-mail on the detail page: what happened to it and, while it waits, why. */
export function DeliveryBanner({ delivery }: { delivery: InvoiceDelivery }) {
  const { t } = useTranslation('invoices');
  const { tone } = deliveryTone(delivery);
  const to = delivery.recipient ?? t('delivery.noRecipient');
  return (
    <div
      className={`banner ${tone === 'ok' ? 'info' : tone === 'bad' ? 'error' : 'warn'}`}
      role="status"
      data-delivery={delivery.state}
    >
      <div className="grow">
        <strong>{t(`delivery.title.${delivery.kind}.${delivery.state}`, { to })}</strong>
        <small>
          {delivery.state === 'sent'
            ? t('delivery.sentAt', { at: formatDateTime(delivery.sentAt) })
            : delivery.state === 'failed'
              ? t('delivery.explain.failed', { count: delivery.attempts })
              : t(`delivery.explain.${delivery.state}`, { at: formatDateTime(delivery.createdAt) })}
        </small>
        {delivery.lastError && delivery.state !== 'sent' ? (
          <small>
            {t('delivery.lastError')} <span lang="en">{delivery.lastError}</span>
          </small>
        ) : null}
      </div>
      {delivery.state === 'awaiting_sync' ? (
        <AppLink to="/team-settings?tab=mail" className="btn small">
          {t('delivery.setUpMail')}
        </AppLink>
      ) : null}
    </div>
  );
}
