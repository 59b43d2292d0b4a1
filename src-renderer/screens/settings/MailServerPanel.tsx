/**
 * Team settings → Mail server: where invoice e-mails go out (`/app/smtp`, what `finops smtp` sets). Without one,
 * e-mails wait for sync; with one, those waiting are handed to it. The password is written, never shown: a stored
 * one is kept while the field stays empty. Once one is saved, an owner sends a test message through it.
 */
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import { appSmtpRoutes, SMTP_SECURITY, type SmtpView } from '../../../src-shared/contract/app-smtp';
import { ErrorBanner, Field, FormError, TextField } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { type FieldErrors, FORM_KEY, fieldErrorsFrom } from '../../lib/field-errors';
import { formatDateTime } from '../../lib/format';
import { useToasts } from '../../stores/toasts';
import { SavedSettingActions } from './SavedSettingActions';
import { SmtpTestMessage } from './SmtpTestMessage';
import { useMayManageTeam } from './TeamPanel';

type Security = (typeof SMTP_SECURITY)[number];
/** The port each security mode usually listens on, proposed when the mode changes. */
const PORTS: Record<Security, string> = { tls: '465', starttls: '587', none: '25' };

interface SmtpValues {
  host: string;
  port: string;
  security: Security;
  username: string;
  password: string;
  fromAddress: string;
  fromName: string;
}

function valuesOf(s: SmtpView['data']): SmtpValues {
  return s
    ? {
        host: s.host,
        port: String(s.port),
        security: s.security,
        username: s.username ?? '',
        password: '',
        fromAddress: s.fromAddress,
        fromName: s.fromName ?? '',
      }
    : { host: '', port: '587', security: 'starttls', username: '', password: '', fromAddress: '', fromName: '' };
}

const FIELDS: ReadonlySet<string> = new Set(['host', 'port', 'security', 'username', 'password', 'fromAddress', 'fromName']);

export function MailServerPanel() {
  const { t } = useTranslation('team');
  const smtp = useRead(appSmtpRoutes.get);
  const mayManage = useMayManageTeam();
  return (
    <section className="panel" aria-labelledby="mail-title">
      <h2 id="mail-title">{t('mail.title')}</h2>
      {smtp.error ? <ErrorBanner error={smtp.error} onRetry={() => void smtp.refetch()} /> : null}
      {smtp.data ? (
        <MailForm key={smtp.data.data?.updatedAt ?? 'none'} current={smtp.data.data} />
      ) : (
        <div className="skeleton-block formats-skeleton" />
      )}
      {smtp.data?.data && mayManage ? <SmtpTestMessage /> : null}
    </section>
  );
}

function MailForm({ current }: { current: SmtpView['data'] }) {
  const { t } = useTranslation('team');
  const [values, setValues] = useState<SmtpValues>(() => valuesOf(current));
  const [errors, setErrors] = useState<FieldErrors>({});
  const put = useWrite(appSmtpRoutes.put);
  const remove = useWrite(appSmtpRoutes.remove);
  const toast = useToasts();
  const mayManage = useMayManageTeam();

  const set = (field: keyof SmtpValues, value: string) => {
    setValues((v) => ({
      ...v,
      [field]: value,
      // A new mode proposes its port, unless the port was changed by hand.
      ...(field === 'security' && v.port === PORTS[v.security] ? { port: PORTS[value as Security] } : {}),
    }));
    if (errors[field]) setErrors(({ [field]: _, ...rest }) => rest);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const port = Number(values.port);
    try {
      await put.mutateAsync({
        body: {
          host: values.host.trim(),
          port: Number.isInteger(port) ? port : -1,
          security: values.security,
          username: values.username.trim() || null,
          ...(values.password ? { password: values.password } : {}),
          fromAddress: values.fromAddress.trim(),
          fromName: values.fromName.trim() || null,
        },
      });
      toast.show(t('mail.saved'));
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 422) setErrors(fieldErrorsFrom(err, FIELDS));
      else toast.error(err, t('mail.saveFailed'));
    }
  }

  const text = (field: keyof SmtpValues, label: string, opts: { type?: string; hint?: string; required?: boolean } = {}) => (
    <TextField
      name={field}
      label={label}
      value={values[field]}
      onChange={(e) => set(field, e.target.value)}
      error={errors[field]}
      hint={opts.hint}
      required={opts.required}
      type={opts.type}
      readOnly={!mayManage}
      autoComplete={field === 'password' ? 'new-password' : 'off'}
      inputMode={field === 'port' ? 'numeric' : undefined}
    />
  );

  return (
    <form onSubmit={submit} noValidate aria-label={t('mail.title')}>
      <p className={current ? 'muted' : 'banner info'} role="status">
        {current
          ? t('mail.active', { host: current.host, from: current.fromAddress, at: formatDateTime(current.updatedAt) })
          : t('mail.none')}
      </p>
      <FormError message={errors[FORM_KEY]} />
      <div className="grid-2">
        {text('host', t('mail.host'), { required: true, hint: t('mail.hostHint') })}
        <Field label={t('mail.security')} error={errors.security}>
          {({ id, describedBy }) => (
            <select
              id={id}
              name="security"
              className="select"
              value={values.security}
              onChange={(e) => set('security', e.target.value)}
              aria-describedby={describedBy}
              disabled={!mayManage}
            >
              {SMTP_SECURITY.map((s) => (
                <option key={s} value={s}>
                  {t(`mail.securities.${s}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        {text('port', t('mail.port'), { required: true })}
        {text('username', t('mail.username'), { hint: t('mail.usernameHint') })}
        {text('password', t('mail.password'), {
          type: 'password',
          hint: current?.passwordSet ? t('mail.passwordKept') : t('mail.passwordHint'),
        })}
        {text('fromAddress', t('mail.fromAddress'), { type: 'email', required: true })}
        {text('fromName', t('mail.fromName'), { hint: t('mail.fromNameHint') })}
      </div>
      <SavedSettingActions
        mayManage={mayManage}
        saved={Boolean(current)}
        saving={put.isPending}
        removing={remove.isPending}
        onRemove={() => remove.mutateAsync({})}
        words={{
          save: t('mail.save'),
          remove: t('mail.remove'),
          removeTitle: t('mail.removeTitle'),
          removeText: t('mail.removeText'),
          removed: t('mail.removed'),
          removeFailed: t('mail.removeFailed'),
          ownersOnly: t('team.ownersOnly'),
        }}
      />
    </form>
  );
}
