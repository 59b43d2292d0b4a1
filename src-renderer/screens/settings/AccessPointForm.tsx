/**
 * Settings › E-invoices › Peppol access point (docs/decisions/0162-peppol-access-point.md): the provider account the
 * team's e-invoices are handed to — Storecove's API address, the legal entity it sends as, and the API key. The key
 * is written, never shown: a stored one is kept while the field stays empty. Owners change it; members see it.
 */
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import {
  type AccessPointView,
  appEInvoiceDeliveryRoutes as routes,
  STORECOVE_BASE_URL,
} from '../../../src-shared/contract/app-einvoice-delivery';
import { ErrorBanner, FormError, TextField } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { FORM_KEY, fieldErrorsFrom } from '../../lib/field-errors';
import { formatDateTime } from '../../lib/format';
import { useFormState } from '../../lib/use-form-state';
import { useToasts } from '../../stores/toasts';
import { SavedSettingActions } from './SavedSettingActions';
import { useMayManageTeam } from './TeamPanel';

const FIELDS: ReadonlySet<string> = new Set(['baseUrl', 'legalEntityId', 'apiKey']);
type Values = { baseUrl: string; legalEntityId: string; apiKey: string };

export function AccessPointSettings() {
  const { t } = useTranslation('settings');
  const current = useRead(routes.getAccessPoint);
  return (
    <section className="access-point" aria-labelledby="access-point-title">
      <h3 id="access-point-title">{t('einvoice.accessPoint.title')}</h3>
      <p className="muted">{t('einvoice.accessPoint.intro')}</p>
      {current.error ? <ErrorBanner error={current.error} onRetry={() => void current.refetch()} /> : null}
      {current.data ? (
        <AccessPointForm key={current.data.data?.updatedAt ?? 'none'} current={current.data.data} />
      ) : (
        <div className="skeleton-block formats-skeleton" />
      )}
    </section>
  );
}

function AccessPointForm({ current }: { current: AccessPointView['data'] }) {
  const { t } = useTranslation('settings');
  const { values, errors, setErrors, set } = useFormState<Values>({
    baseUrl: current?.baseUrl ?? STORECOVE_BASE_URL,
    legalEntityId: current ? String(current.legalEntityId) : '',
    apiKey: '',
  });
  const put = useWrite(routes.putAccessPoint);
  const remove = useWrite(routes.removeAccessPoint);
  const toast = useToasts();
  const mayManage = useMayManageTeam();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const id = Number(values.legalEntityId.trim());
    try {
      await put.mutateAsync({
        body: {
          provider: 'storecove',
          baseUrl: values.baseUrl.trim(),
          legalEntityId: Number.isInteger(id) && values.legalEntityId.trim() ? id : -1,
          ...(values.apiKey.trim() ? { apiKey: values.apiKey.trim() } : {}),
        },
      });
      toast.show(t('einvoice.accessPoint.saved'));
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 422) setErrors(fieldErrorsFrom(err, FIELDS));
      else toast.error(err, t('einvoice.accessPoint.saveFailed'));
    }
  }

  const text = (field: keyof Values, opts: { type?: string; hint?: string; required?: boolean } = {}) => (
    <TextField
      name={field}
      label={t(`einvoice.accessPoint.${field}`)}
      value={values[field]}
      onChange={set(field)}
      error={errors[field]}
      hint={opts.hint}
      required={opts.required}
      type={opts.type}
      readOnly={!mayManage}
      autoComplete={field === 'apiKey' ? 'new-password' : 'off'}
      inputMode={field === 'legalEntityId' ? 'numeric' : undefined}
    />
  );

  return (
    <form onSubmit={submit} noValidate aria-label={t('einvoice.accessPoint.title')}>
      <p className={current ? 'muted' : 'banner info'} role="status">
        {current
          ? t('einvoice.accessPoint.active', { id: current.legalEntityId, at: formatDateTime(current.updatedAt) })
          : t('einvoice.accessPoint.none')}
      </p>
      <FormError message={errors[FORM_KEY]} />
      <div className="grid-2">
        {text('legalEntityId', { required: true, hint: t('einvoice.accessPoint.legalEntityIdHint') })}
        {text('apiKey', {
          type: 'password',
          required: !current?.apiKeySet,
          hint: current?.apiKeySet ? t('einvoice.accessPoint.apiKeyKept') : t('einvoice.accessPoint.apiKeyHint'),
        })}
        {text('baseUrl', { required: true, hint: t('einvoice.accessPoint.baseUrlHint') })}
      </div>
      <SavedSettingActions
        mayManage={mayManage}
        saved={Boolean(current)}
        saving={put.isPending}
        removing={remove.isPending}
        onRemove={() => remove.mutateAsync({})}
        words={{
          save: t('einvoice.accessPoint.save'),
          remove: t('einvoice.accessPoint.remove'),
          removeTitle: t('einvoice.accessPoint.removeTitle'),
          removeText: t('einvoice.accessPoint.removeText'),
          removed: t('einvoice.accessPoint.removed'),
          removeFailed: t('einvoice.accessPoint.removeFailed'),
          ownersOnly: t('einvoice.ownersOnly'),
        }}
      />
    </form>
  );
}
