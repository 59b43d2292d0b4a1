/**
 * Where the invoice's e-invoice stands with the team's Peppol access point (docs/decisions/0162): waiting (offline,
 * or to try again, with why), handed over with the provider's submission id, refused with the provider's words, or canceled with the invoice
 * before it went.
 * Nothing when the invoice was never handed to one. While one waits, the line is read again every few seconds: the
 * runner's progress is not in the change stream.
 */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { appEInvoiceDeliveryRoutes } from '../../../src-shared/contract/app-einvoice-delivery';
import { useRead } from '../../data/use-read';
import { formatDateTime } from '../../lib/format';

export function EInvoiceHandOff({ invoiceId }: { invoiceId: string }) {
  const { t } = useTranslation('einvoice');
  const handOffs = useRead(appEInvoiceDeliveryRoutes.handOffs, { params: { id: invoiceId } });
  const latest = handOffs.data?.data.at(-1);
  const pending = latest?.state === 'waiting' || latest?.state === 'sending';
  const { refetch } = handOffs;
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => void refetch(), 5000);
    return () => clearInterval(timer);
  }, [pending, refetch]);
  if (!latest) return null;

  const to = { recipient: latest.recipient };
  return (
    <div className={`einv-handoff ${latest.state}`} data-state={latest.state} role="status">
      {latest.state === 'handed_over' ? (
        <p>
          <span aria-hidden="true">✓ </span>
          {t('handOff.handedOver', { ...to, at: formatDateTime(latest.handedOverAt ?? latest.createdAt) })}
          {latest.submissionId ? <span className="faint"> {t('handOff.submission', { id: latest.submissionId })}</span> : null}
        </p>
      ) : latest.state === 'failed' ? (
        <p className="einv-failing">{t('handOff.failed', { ...to, reason: latest.lastError ?? '' })}</p>
      ) : latest.state === 'canceled' ? (
        <p className="muted">{t('handOff.canceled', to)}</p>
      ) : (
        <p className="muted">
          {t('handOff.waiting', to)}
          {latest.lastError ? ` ${t('handOff.lastError', { reason: latest.lastError })}` : ''}
        </p>
      )}
    </div>
  );
}
