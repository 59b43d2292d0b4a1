/**
 * Team settings → Team: the team's name, base currency, country and fiscal year, the address and VAT number its
 * invoices print, and its members. An owner changes them; a member sees them. A new base currency recomputes every
 * base amount (the server does it with the change), which the form says before it is saved.
 */
import { type FormEvent, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import { type Team, teamRoutes } from '../../../src-shared/contract/teams';
import { DataTable } from '../../components/table/DataTable';
import { ErrorBanner, Field, FormError, TextField } from '../../components/ui';
import { useRead, useRecord } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { type FieldErrors, FORM_KEY, fieldErrorsFrom } from '../../lib/field-errors';
import { formatDate, formatMonth } from '../../lib/format';
import { countryOptions } from '../../lib/regions';
import { useFormState } from '../../lib/use-form-state';
import { useConnection } from '../../stores/connection';
import { useToasts } from '../../stores/toasts';
import { currencyOptions } from './currencies';
import { TEAM_FIELDS, type TeamField, type TeamValues, teamErrors, teamPatch, teamValues } from './team-form';

const FORM_FIELDS: ReadonlySet<string> = new Set(TEAM_FIELDS);

/** Whether the signed-in person may change the team (the desktop app's key acts for its owner). */
export function useMayManageTeam(): boolean {
  const session = useConnection((s) => s.session);
  return !session || session.user.role === 'owner';
}

export function TeamPanel() {
  const { t } = useTranslation('team');
  const teams = useRead(teamRoutes.list);
  const team = teams.data?.data[0];
  return (
    <>
      <section className="panel" aria-labelledby="team-title">
        <h2 id="team-title">{t('team.title')}</h2>
        {teams.error ? <ErrorBanner error={teams.error} onRetry={() => void teams.refetch()} /> : null}
        {team ? <TeamForm key={team.updatedAt} team={team} /> : <div className="skeleton-block formats-skeleton" />}
      </section>
      {team ? <Members teamId={team.id} /> : null}
    </>
  );
}

function TeamForm({ team }: { team: Team }) {
  const { t, i18n } = useTranslation('team');
  const { values, setValues, errors, setErrors, set } = useFormState<TeamValues>(() => teamValues(team));
  const update = useWrite(teamRoutes.update);
  const toast = useToasts();
  const mayManage = useMayManageTeam();
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  const currencies = useMemo(() => currencyOptions(i18n.language), [i18n.language]);
  const patch = teamPatch(team, values);
  const changed = Object.keys(patch).length > 0;

  async function submit(e: FormEvent) {
    e.preventDefault();
    const local = teamErrors(values);
    if (Object.keys(local).length) return setErrors(local as FieldErrors);
    try {
      const saved = await update.mutateAsync({ params: { id: team.id }, body: patch });
      // The frame names the team beside the person: it follows a new name at once.
      useConnection.setState((s) =>
        s.session ? { session: { ...s.session, team: { ...s.session.team, name: saved.name } } } : {},
      );
      toast.show(t('team.saved'));
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 422) setErrors(fieldErrorsFrom(err, FORM_FIELDS));
      else toast.error(err, t('team.saveFailed'));
    }
  }

  const input = (field: TeamField, label: string, opts: { required?: boolean; span?: boolean; hint?: string } = {}) => (
    <TextField
      name={field}
      label={label}
      value={values[field]}
      onChange={set(field)}
      error={errors[field]}
      hint={opts.hint}
      required={opts.required}
      readOnly={!mayManage}
      className={opts.span ? 'span-2' : ''}
    />
  );
  const select = (field: TeamField, label: string, options: { value: string; label: string }[], hint?: string) => (
    <Field label={label} error={errors[field]} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          name={field}
          className="select"
          value={values[field]}
          onChange={set(field)}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          disabled={!mayManage}
        >
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
  const months = Array.from({ length: 12 }, (_, i) => ({
    value: String(i + 1),
    label: formatMonth(`2026-${String(i + 1).padStart(2, '0')}`, 'name'),
  }));

  return (
    <form onSubmit={submit} noValidate aria-label={t('team.title')}>
      {mayManage ? null : <p className="muted">{t('team.ownersOnly')}</p>}
      <FormError message={errors[FORM_KEY]} />
      <div className="grid-2">
        {input('name', t('team.name'), { required: true, span: true })}
        {select(
          'baseCurrency',
          t('team.baseCurrency'),
          currencies.map((c) => ({ value: c.code, label: c.label })),
          values.baseCurrency !== team.baseCurrency ? t('team.baseCurrencyChange') : t('team.baseCurrencyHint'),
        )}
        {select('fiscalYearStartMonth', t('team.fiscalYear'), months)}
      </div>
      <h3>{t('team.addressTitle')}</h3>
      <p className="faint">{t('team.addressHint')}</p>
      <div className="grid-2">
        {input('addressLine1', t('team.addressLine1'), { span: true })}
        {input('addressLine2', t('team.addressLine2'), { span: true })}
        {input('zip', t('team.zip'))}
        {input('city', t('team.city'))}
        {input('state', t('team.state'))}
        {select('countryCode', t('team.country'), [
          { value: '', label: '—' },
          ...countries.map((c) => ({ value: c.code, label: `${c.name} (${c.code})` })),
        ])}
        {input('vatNumber', t('team.vatNumber'), { hint: t('team.vatHint') })}
      </div>
      {mayManage ? (
        <div className="panel-actions">
          <button type="submit" className="btn primary" disabled={!changed || update.isPending}>
            {t('team.save')}
          </button>
          {changed ? (
            <button type="button" className="btn" onClick={() => setValues(teamValues(team))}>
              {t('common:cancel')}
            </button>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}

function Members({ teamId }: { teamId: string }) {
  const { t } = useTranslation('team');
  const members = useRecord(teamRoutes.members, { id: teamId });
  return (
    <section className="panel" aria-labelledby="members-title">
      <h2 id="members-title">{t('members.title')}</h2>
      <p className="muted">{t('members.intro')}</p>
      {members.error ? <ErrorBanner error={members.error} onRetry={() => void members.refetch()} /> : null}
      <DataTable
        label={t('members.title')}
        className="compact"
        rows={members.data?.data ?? []}
        loading={members.isPending}
        skeletonRows={2}
        rowKey={(m) => m.id}
        empty={<p className="faint">{t('members.none')}</p>}
        columns={[
          { id: 'name', header: t('members.name'), cell: (m) => <span className="cell-name">{m.fullName}</span> },
          { id: 'email', header: t('members.email'), cell: (m) => m.email },
          {
            id: 'role',
            header: t('members.role'),
            cell: (m) => <span className={`status-pill ${m.role === 'owner' ? 'ok' : ''}`}>{t(`members.roles.${m.role}`)}</span>,
          },
          { id: 'joined', header: t('members.joined'), className: 'date', cell: (m) => formatDate(m.joinedAt) },
        ]}
      />
    </section>
  );
}
