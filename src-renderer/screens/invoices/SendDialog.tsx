/**
 * Sending an invoice, again or a reminder: to whom, with what subject and text (the invoice's own in its language to
 * start with, GET /invoices/{id}/email; only what the person changed is sent as theirs), the PDF with it. Before a
 * draft is issued the dialog shows what it must state and does not (Art. 226 VAT directive, § 14 UStG, then the
 * customer's e-invoice rules: GET /invoices/{id}/issue-check, docs/decisions/0121), each with a way to its field,
 * and does not send until nothing is missing. A reminder says its dunning level and fee (0122). Without a mail
 * server the dialog says the e-mail will wait, with the way to Team settings › Mail server.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { appSmtpRoutes } from '../../../src-shared/contract/app-smtp';
import type { RuleFailure } from '../../../src-shared/contract/errors';
import { type Invoice, invoiceRoutes } from '../../../src-shared/contract/invoices';
import { REQUIREMENT_RULES } from '../../../src-shared/domain/invoice-requirements';
import { AppLink } from '../../components/AppLink';
import { Field } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { formatAmount, formatNumber } from '../../lib/format';
import { EInvoiceRules } from './EInvoiceRules';
import type { FixTarget } from './einvoice-failures';
import { FormDialog } from './FormDialog';

const LAW: ReadonlySet<string> = new Set(REQUIREMENT_RULES);

export interface SendInput {
  to: string;
  subject?: string;
  message?: string;
}

export function SendDialog(props: {
  command: 'send' | 'resend' | 'remind';
  invoice: Invoice;
  number: string;
  defaultTo: string;
  busy: boolean;
  refused: readonly RuleFailure[] | null;
  onSend: (input: SendInput) => void;
  onCancel: () => void;
  onFix: (target: FixTarget) => void;
}) {
  const { t } = useTranslation('invoices');
  const id = props.invoice.id;
  const [to, setTo] = useState(props.defaultTo);
  const [subject, setSubject] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>(undefined);
  const reminder = props.command === 'remind';
  const email = useRead(invoiceRoutes.emailDraft, { params: { id }, query: { kind: reminder ? 'reminder' : 'invoice' } });
  // A draft is checked for what an invoice must state, then for its e-invoice; an issued one for its e-invoice only.
  const issue = useRead(invoiceRoutes.issueCheck, { params: { id } }, { enabled: props.command === 'send' });
  const eInvoice = useRead(invoiceRoutes.eInvoiceCheck, { params: { id }, query: {} }, { enabled: props.command === 'resend' });
  const smtp = useRead(appSmtpRoutes.get);
  const check = props.command === 'send' ? issue : props.command === 'resend' ? eInvoice : null;
  const failures = props.refused?.length ? props.refused : (check?.data?.failures ?? []);
  const checking = Boolean(check?.isLoading);
  const law = failures.filter((f) => LAW.has(f.rule)).length;
  const format = eInvoice.data?.format;

  // The invoice's own subject and text fill the fields once known; what the person typed stays.
  useEffect(() => {
    if (!email.data) return;
    setSubject((s) => s ?? email.data.subject);
    setMessage((m) => m ?? email.data.message);
  }, [email.data]);

  function submit() {
    if (!/^[^\s@]+@[^\s@]+$/.test(to.trim())) return setError(t('sendDialog.badAddress'));
    const own = (typed: string | null, given: string | undefined) => (typed?.trim() && typed !== given ? typed : undefined);
    const input: SendInput = { to: to.trim() };
    const s = own(subject, email.data?.subject);
    const m = own(message, email.data?.message);
    if (s) input.subject = s;
    if (m) input.message = m;
    props.onSend(input);
  }

  return (
    <FormDialog
      title={t(`sendDialog.${props.command}.title`, { number: props.number })}
      submitLabel={t(`sendDialog.${props.command}.submit`)}
      busy={props.busy || checking || failures.length > 0}
      onSubmit={submit}
      onCancel={props.onCancel}
      className="send-dialog"
    >
      {checking ? <p className="muted">{t('sendDialog.checking')}</p> : null}
      {failures.length > 0 ? (
        <div className="einv-send-blocked">
          <p className="banner warn" role="alert">
            {law > 0
              ? t('sendDialog.blockedLaw', { count: failures.length })
              : t('einvoice:send.blocked', { format: format ? t(`einvoice:formats.${format}`) : '', count: failures.length })}
          </p>
          <EInvoiceRules failures={failures} onFix={props.onFix} editable={props.invoice.status === 'draft'} />
        </div>
      ) : null}
      {smtp.data && !smtp.data.data ? (
        <div className="banner warn" role="status">
          <div className="grow">
            <small>{t('sendDialog.noMailServer')}</small>
          </div>
          <AppLink to="/team-settings?tab=mail" className="btn small">
            {t('delivery.setUpMail')}
          </AppLink>
        </div>
      ) : null}
      {reminder && email.data?.reminderLevel ? (
        <p className="muted" data-testid="reminder-level">
          {email.data.fee > 0
            ? t('sendDialog.levelFee', {
                level: formatNumber(email.data.reminderLevel),
                fee: formatAmount(email.data.fee, props.invoice.currency),
              })
            : t('sendDialog.level', { level: formatNumber(email.data.reminderLevel) })}
        </p>
      ) : null}
      <Field label={t('sendDialog.to')} required error={error} hint={t('sendDialog.hint')}>
        {({ id: inputId, describedBy, invalid }) => (
          <input
            id={inputId}
            className="input"
            type="email"
            value={to}
            // biome-ignore lint/a11y/noAutofocus: the dialog opens on its first field
            autoFocus
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => {
              setTo(e.target.value);
              setError(undefined);
            }}
            onBlur={() => {
              if (to.trim() && !/^[^\s@]+@[^\s@]+$/.test(to.trim())) setError(t('sendDialog.badAddress'));
            }}
          />
        )}
      </Field>
      <Field label={t('sendDialog.subject')}>
        {({ id: inputId }) => (
          <input
            id={inputId}
            className="input"
            value={subject ?? ''}
            placeholder={email.isLoading ? '…' : undefined}
            onChange={(e) => setSubject(e.target.value)}
          />
        )}
      </Field>
      <Field label={t('sendDialog.message')} hint={t('sendDialog.messageHint')}>
        {({ id: inputId, describedBy }) => (
          <textarea
            id={inputId}
            className="textarea"
            rows={8}
            value={message ?? ''}
            aria-describedby={describedBy}
            onChange={(e) => setMessage(e.target.value)}
          />
        )}
      </Field>
    </FormDialog>
  );
}
