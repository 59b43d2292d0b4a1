/**
 * Settings → E-invoices: what the team's e-invoices say about it beyond its name, address and VAT number — the
 * format for customers who name none, its Peppol ID (its electronic address, BT-34) and the contact e-mail and
 * phone XRechnung asks for (BG-6). An owner changes them; a member sees them. The form also opens from an invoice
 * whose check fails on one of these fields (`focusField`), in a drawer over the invoice.
 */
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import { type Team, type TeamPatch, teamRoutes } from '../../../src-shared/contract/teams';
import { EInvoiceFormatField } from '../../components/EInvoiceFormatField';
import { ErrorBanner, Field } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { type FieldErrors, FORM_KEY, fieldErrorsFrom } from '../../lib/field-errors';
import { useConnection } from '../../stores/connection';
import { useToasts } from '../../stores/toasts';
import { AccessPointSettings } from './AccessPointForm';
import './einvoice-settings.css';

const FIELDS = ['eInvoiceFormat', 'peppolId', 'email', 'phone'] as const;
export type EInvoiceSettingsField = (typeof FIELDS)[number];
type Values = Record<EInvoiceSettingsField, string>;

const valuesOf = (team: Team): Values => Object.fromEntries(FIELDS.map((f) => [f, team[f] ?? ''])) as Values;

/** The changed fields, trimmed; an emptied one as null (cleared). */
function patchOf(team: Team, values: Values): TeamPatch {
  const before = valuesOf(team);
  const patch: Record<string, string | null> = {};
  for (const f of FIELDS) {
    const now = values[f].trim();
    if (now !== before[f].trim()) patch[f] = now === '' ? null : now;
  }
  return patch as TeamPatch;
}

/** The Settings screen's panel. */
export function EInvoiceSettings() {
  const { t } = useTranslation('settings');
  return (
    <section className="panel" aria-labelledby="einvoice-settings-title">
      <h2 id="einvoice-settings-title">{t('einvoice.title')}</h2>
      <p className="muted">{t('einvoice.intro')}</p>
      <EInvoiceSettingsForm />
      <AccessPointSettings />
    </section>
  );
}

export function EInvoiceSettingsForm({
  focusField,
  onSaved,
}: {
  /** The field to start in (a failed check pointed at it). */
  focusField?: EInvoiceSettingsField;
  onSaved?: () => void;
}) {
  const teams = useRead(teamRoutes.list);
  const team = teams.data?.data[0];
  if (teams.error) return <ErrorBanner error={teams.error} onRetry={() => void teams.refetch()} />;
  if (!team) return <div className="skeleton-block formats-skeleton" />;
  return <TeamEInvoiceForm key={team.updatedAt} team={team} focusField={focusField} onSaved={onSaved} />;
}

function TeamEInvoiceForm(props: { team: Team; focusField?: EInvoiceSettingsField; onSaved?: () => void }) {
  const { t } = useTranslation('settings');
  const { team } = props;
  const [values, setValues] = useState<Values>(() => valuesOf(team));
  const [errors, setErrors] = useState<FieldErrors>({});
  const update = useWrite(teamRoutes.update);
  const toast = useToasts();
  const formRef = useRef<HTMLFormElement>(null);
  const session = useConnection((s) => s.session);
  // The desktop app's key acts for the team's owner; in a browser, owners change the team.
  const mayChange = !session || session.user.role === 'owner';
  const patch = patchOf(team, values);
  const changed = Object.keys(patch).length > 0;

  useEffect(() => {
    if (props.focusField) formRef.current?.querySelector<HTMLElement>(`[name="${props.focusField}"]`)?.focus();
  }, [props.focusField]);

  const set = (field: EInvoiceSettingsField) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _, ...rest }) => rest);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!changed) return;
    try {
      await update.mutateAsync({ params: { id: team.id }, body: patch });
      toast.show(t('einvoice.saved'));
      props.onSaved?.();
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 422) setErrors(fieldErrorsFrom(err, new Set(FIELDS)));
      else toast.error(err, t('einvoice.saveFailed'));
    }
  }

  const input = (field: Exclude<EInvoiceSettingsField, 'eInvoiceFormat'>, type: string, hint?: string) => (
    <Field label={t(`einvoice.${field}`)} error={errors[field]} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          name={field}
          className="input"
          type={type}
          value={values[field]}
          onChange={set(field)}
          disabled={!mayChange}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          autoComplete="off"
        />
      )}
    </Field>
  );

  return (
    <form ref={formRef} className="einvoice-settings" onSubmit={submit} noValidate>
      {errors[FORM_KEY] ? (
        <div className="banner error" role="alert">
          {errors[FORM_KEY]}
        </div>
      ) : null}
      <div className="grid-2">
        <EInvoiceFormatField
          label={t('einvoice.eInvoiceFormat')}
          name="eInvoiceFormat"
          value={values.eInvoiceFormat}
          onChange={(value) => set('eInvoiceFormat')({ target: { value } })}
          emptyLabel={t('einvoice.noFormat')}
          hint={t('einvoice.eInvoiceFormatHint')}
          error={errors.eInvoiceFormat}
          disabled={!mayChange}
        />
        {input('peppolId', 'text', t('einvoice.peppolIdHint'))}
        {input('email', 'email', t('einvoice.emailHint'))}
        {input('phone', 'tel', t('einvoice.phoneHint'))}
      </div>
      {mayChange ? (
        <div className="panel-actions">
          <button type="submit" className="btn primary" disabled={!changed || update.isPending}>
            {t('einvoice.save')}
          </button>
          {changed ? (
            <button type="button" className="btn" onClick={() => setValues(valuesOf(team))}>
              {t('common:cancel')}
            </button>
          ) : null}
        </div>
      ) : (
        <p className="faint">{t('einvoice.ownersOnly')}</p>
      )}
    </form>
  );
}
