/**
 * The buttons of an invoice's page: exactly the moves its state allows (invoice-commands.ts), the usual next step
 * first. Sending and reminding ask for the address (the customer's billing e-mail to start with); marking paid asks
 * for the day; canceling, refunding, deleting and undoing a payment ask to be sure. What happened is said in a
 * toast, and an e-mail that waits (no mail server, or offline) is said to wait. Sending checks the e-invoice the
 * customer gets first: an invoice that fails it is not sent, and the dialog lists the rules with a way to each field.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import type { RuleFailure } from '../../../src-shared/contract/errors';
import { paymentRoutes } from '../../../src-shared/contract/invoice-payments';
import { type Invoice, invoiceRoutes } from '../../../src-shared/contract/invoices';
import { dayIn } from '../../../src-shared/domain/invoice-dates';
import { DateField } from '../../components/DateField';
import { ConfirmDialog, Field } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { formatPreferences } from '../../lib/format';
import { useRouter } from '../../lib/router';
import { useToasts } from '../../stores/toasts';
import { EInvoiceRules } from './EInvoiceRules';
import type { FixTarget } from './einvoice-failures';
import { CONFIRMED, commandsFor, deliveryTone, type InvoiceCommand } from './invoice-commands';

export function InvoiceCommands({ invoice, onFix }: { invoice: Invoice; onFix: (target: FixTarget) => void }) {
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

  async function run(command: InvoiceCommand, input: { to?: string; paidOn?: string } = {}) {
    setBusy(true);
    try {
      const params = { id: invoice.id };
      switch (command) {
        case 'send':
        case 'resend':
        case 'remind': {
          const body = input.to ? { to: input.to } : {};
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
            setOpen(command);
          }}
        >
          {t(`commands.${command}`)}
        </button>
      ))}
      {open === 'send' || open === 'resend' || open === 'remind' ? (
        <SendDialog
          command={open}
          invoiceId={invoice.id}
          number={number}
          defaultTo={recipient}
          busy={busy}
          refused={refused}
          onSend={(to) => void run(open, { to })}
          onCancel={() => setOpen(null)}
          onFix={(target) => {
            setOpen(null);
            onFix(target);
          }}
        />
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

/** A small modal form: a title, fields, and the action with Cancel; Esc cancels, focus starts in the first field. */
function FormDialog(props: {
  title: string;
  children: React.ReactNode;
  submitLabel: string;
  busy: boolean;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('invoices');
  const titleId = useId();
  return (
    <>
      <div className="overlay top" onClick={props.onCancel} aria-hidden="true" />
      <form
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          props.onSubmit();
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            props.onCancel();
          }
        }}
      >
        <h2 id={titleId}>{props.title}</h2>
        {props.children}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={props.onCancel}>
            {t('common:cancel')}
          </button>
          <button type="submit" className="btn primary" disabled={props.busy}>
            {props.submitLabel}
          </button>
        </div>
      </form>
    </>
  );
}

function SendDialog(props: {
  command: 'send' | 'resend' | 'remind';
  invoiceId: string;
  number: string;
  defaultTo: string;
  busy: boolean;
  refused: readonly RuleFailure[] | null;
  onSend: (to: string) => void;
  onCancel: () => void;
  onFix: (target: FixTarget) => void;
}) {
  const { t } = useTranslation('invoices');
  const [to, setTo] = useState(props.defaultTo);
  const [error, setError] = useState<string | undefined>(undefined);
  // The invoice (not a reminder) goes with the customer's e-invoice: checked as the page checks it (one query).
  const sendsInvoice = props.command !== 'remind';
  const check = useRead(invoiceRoutes.eInvoiceCheck, { params: { id: props.invoiceId }, query: {} }, { enabled: sendsInvoice });
  const failures = props.refused?.length ? props.refused : sendsInvoice ? (check.data?.failures ?? []) : [];
  const checking = sendsInvoice && check.isLoading;
  const format = check.data?.format;
  return (
    <FormDialog
      title={t(`sendDialog.${props.command}.title`, { number: props.number })}
      submitLabel={t(`sendDialog.${props.command}.submit`)}
      busy={props.busy || checking || failures.length > 0}
      onSubmit={() => {
        if (!/^[^\s@]+@[^\s@]+$/.test(to.trim())) setError(t('sendDialog.badAddress'));
        else props.onSend(to.trim());
      }}
      onCancel={props.onCancel}
    >
      {checking ? <p className="muted">{t('einvoice:send.checking')}</p> : null}
      {failures.length > 0 ? (
        <div className="einv-send-blocked">
          <p className="banner warn" role="alert">
            {t('einvoice:send.blocked', { format: format ? t(`einvoice:formats.${format}`) : '', count: failures.length })}
          </p>
          <EInvoiceRules failures={failures} onFix={props.onFix} />
        </div>
      ) : null}
      <Field label={t('sendDialog.to')} required error={error} hint={t('sendDialog.hint')}>
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="input"
            type="email"
            value={to}
            // biome-ignore lint/a11y/noAutofocus: the dialog opens on its one field
            autoFocus
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => {
              setTo(e.target.value);
              setError(undefined);
            }}
          />
        )}
      </Field>
    </FormDialog>
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
