/**
 * The buttons of an invoice's page: exactly the moves its state allows (invoice-commands.ts), the usual next step
 * first. A draft is edited in the invoice form; sending and reminding ask for the address, subject and text
 * (SendDialog.tsx); a payment received is recorded with its amount, day and bank line (PaymentDialog.tsx); marking
 * paid asks for the day; canceling, refunding, deleting and undoing a payment ask to be sure. What happened is said
 * in a toast, and an e-mail that waits (no mail server, or offline) is said to wait. Sending checks first what the
 * invoice must state and the customer's e-invoice: an invoice that fails is not sent, and the dialog lists each rule
 * with a way to its field.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import type { RuleFailure } from '../../../src-shared/contract/errors';
import { paymentRoutes } from '../../../src-shared/contract/invoice-payments';
import { type Invoice, invoiceRoutes } from '../../../src-shared/contract/invoices';
import { dayIn } from '../../../src-shared/domain/invoice-dates';
import { DateField } from '../../components/DateField';
import { ConfirmDialog } from '../../components/ui';
import { useWrite } from '../../data/use-write';
import { formatPreferences } from '../../lib/format';
import { useRouter } from '../../lib/router';
import { useToasts } from '../../stores/toasts';
import type { FixTarget } from './einvoice-failures';
import { FormDialog } from './FormDialog';
import { CONFIRMED, commandsFor, deliveryTone, type InvoiceCommand } from './invoice-commands';
import { PaymentDialog } from './PaymentDialog';
import { SendDialog, type SendInput } from './SendDialog';

export function InvoiceCommands({
  invoice,
  onFix,
  onEdit,
}: {
  invoice: Invoice;
  onFix: (target: FixTarget) => void;
  /** Opens the draft in the invoice form. */
  onEdit: () => void;
}) {
  const { t } = useTranslation('invoices');
  const [open, setOpen] = useState<InvoiceCommand | null>(null);
  /** The e-invoice rules the server named when it refused to send. */
  const [refused, setRefused] = useState<readonly RuleFailure[] | null>(null);
  const [busy, setBusy] = useState(false);
  const send = useWrite(invoiceRoutes.send);
  const remind = useWrite(invoiceRoutes.remind);
  const update = useWrite(invoiceRoutes.update);
  const remove = useWrite(invoiceRoutes.delete);
  const unmatch = useWrite(paymentRoutes.delete);
  const toast = useToasts();
  const navigate = useRouter((r) => r.navigate);
  const commands = commandsFor(invoice);
  const number = invoice.invoiceNumber ?? t('numberPending');

  async function run(command: InvoiceCommand, input: { send?: SendInput; paidOn?: string } = {}) {
    setBusy(true);
    try {
      const params = { id: invoice.id };
      switch (command) {
        case 'send':
        case 'resend':
        case 'remind': {
          const body = input.send ?? {};
          const after = await (command === 'remind' ? remind : send).mutateAsync({ params, body });
          const waiting = after.delivery && deliveryTone(after.delivery).pending;
          const kind = command === 'remind' ? 'reminder' : 'invoice';
          toast.show(
            waiting && after.delivery?.state === 'awaiting_sync'
              ? t(`done.${kind}AwaitingSync`, { number })
              : t(`done.${kind}Queued`, { number }),
          );
          break;
        }
        case 'markPaid':
          await update.mutateAsync({ params, body: { status: 'paid', paidAt: `${input.paidOn}T12:00:00Z` } });
          toast.show(t('done.paid', { number }));
          break;
        case 'refund':
        case 'cancel':
          await update.mutateAsync({ params, body: { status: command === 'refund' ? 'refunded' : 'canceled' } });
          toast.show(t(command === 'refund' ? 'done.refunded' : 'done.canceled', { number }));
          break;
        case 'undoPayment':
          if (invoice.payment) await unmatch.mutateAsync({ params: { id: invoice.payment.id } });
          toast.show(t('done.paymentUndone', { number }));
          break;
        case 'delete':
          await remove.mutateAsync({ params });
          toast.show(t('done.deleted', { number }));
          navigate('/invoices');
          break;
      }
      setOpen(null);
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 422 && err.rules.length > 0) setRefused(err.rules);
      else toast.error(err, t(`failed.${command}`, { number }));
    } finally {
      setBusy(false);
    }
  }

  const recipient = invoice.customer?.billingEmail ?? invoice.customer?.email ?? '';
  return (
    <div className="header-actions inv-commands">
      {commands.map((command, i) => (
        <button
          key={command}
          type="button"
          className={`btn ${i === 0 && !CONFIRMED.has(command) ? 'primary' : command === 'delete' || command === 'cancel' ? 'danger' : ''}`}
          disabled={busy}
          onClick={() => {
            setRefused(null);
            if (command === 'edit') onEdit();
            else setOpen(command);
          }}
        >
          {t(`commands.${command}`)}
        </button>
      ))}
      {open === 'send' || open === 'resend' || open === 'remind' ? (
        <SendDialog
          command={open}
          invoice={invoice}
          number={number}
          defaultTo={recipient}
          busy={busy}
          refused={refused}
          onSend={(send) => void run(open, { send })}
          onCancel={() => setOpen(null)}
          onFix={(target) => {
            setOpen(null);
            onFix(target);
          }}
        />
      ) : open === 'recordPayment' ? (
        <PaymentDialog invoice={invoice} number={number} onDone={() => setOpen(null)} />
      ) : open === 'markPaid' ? (
        <PaidDialog
          number={number}
          busy={busy}
          onPaid={(paidOn) => void run('markPaid', { paidOn })}
          onCancel={() => setOpen(null)}
        />
      ) : open && CONFIRMED.has(open) ? (
        <ConfirmDialog
          title={t(`confirm.${open}.title`, { number })}
          body={<p>{t(`confirm.${open}.text`, { number })}</p>}
          confirmLabel={t(`confirm.${open}.confirm`)}
          danger
          busy={busy}
          onConfirm={() => void run(open)}
          onCancel={() => setOpen(null)}
        />
      ) : null}
    </div>
  );
}

function PaidDialog(props: { number: string; busy: boolean; onPaid: (day: string) => void; onCancel: () => void }) {
  const { t } = useTranslation('invoices');
  const [day, setDay] = useState(() => dayIn(new Date(), formatPreferences().timezone));
  return (
    <FormDialog
      title={t('paidDialog.title', { number: props.number })}
      submitLabel={t('paidDialog.submit')}
      busy={props.busy || !day}
      onSubmit={() => props.onPaid(day)}
      onCancel={props.onCancel}
    >
      <p className="muted">{t('paidDialog.text')}</p>
      <DateField label={t('paidDialog.day')} required autoFocus value={day} onChange={(next) => setDay(next)} />
    </FormDialog>
  );
}
