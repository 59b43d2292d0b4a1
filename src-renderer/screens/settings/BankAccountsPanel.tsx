/**
 * Team settings → Bank accounts: every account with its balance (the sum of its transactions), its kind and state;
 * a manual account made with its opening balance; renaming, retyping, the IBAN its statements print; archiving
 * (a disabled account is left out of balances) and deleting — which the API refuses while transactions are on the
 * account, so the dialog then offers to archive it or to delete it with them.
 */
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import { ACCOUNT_TYPES, type BankAccount, bankAccountRoutes } from '../../../src-shared/contract/bank-accounts';
import { teamRoutes } from '../../../src-shared/contract/teams';
import { formatIban } from '../../../src-shared/validation/iban';
import { Drawer } from '../../components/Drawer';
import { DataTable } from '../../components/table/DataTable';
import { EmptyState } from '../../components/table/EmptyState';
import { ConfirmDialog, ErrorBanner, Field, Kbd, TextField } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { fieldErrorsFrom } from '../../lib/field-errors';
import { formatAmount } from '../../lib/format';
import { useFormState } from '../../lib/use-form-state';
import { useToasts } from '../../stores/toasts';
import { type AccountValues, accountValues, createBody, newAccountValues, patchBody } from './bank-account-form';
import { currencyOptions } from './currencies';
import { useMayManageTeam } from './TeamPanel';

type Editing = { account: BankAccount | null } | null;

export function BankAccountsPanel() {
  const { t } = useTranslation('team');
  const accounts = useRead(bankAccountRoutes.list);
  const update = useWrite(bankAccountRoutes.update);
  const toast = useToasts();
  const mayManage = useMayManageTeam();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<BankAccount | null>(null);
  const rows = accounts.data?.data ?? [];

  const setEnabled = (a: BankAccount, enabled: boolean) =>
    update
      .mutateAsync({ params: { id: a.id }, body: { enabled } })
      .then(() => toast.show(t(enabled ? 'accounts.restored' : 'accounts.archived', { name: a.name })))
      .catch((err) => toast.error(err, t('accounts.saveFailed')));

  return (
    <section className="panel" aria-labelledby="accounts-title">
      <div className="panel-title-row">
        <h2 id="accounts-title">{t('accounts.title')}</h2>
        {mayManage ? (
          <button type="button" className="btn primary" onClick={() => setEditing({ account: null })}>
            {t('accounts.new')}
          </button>
        ) : null}
      </div>
      <p className="muted">{t('accounts.intro')}</p>
      {accounts.error ? <ErrorBanner error={accounts.error} onRetry={() => void accounts.refetch()} /> : null}
      <DataTable
        label={t('accounts.title')}
        rows={rows}
        loading={accounts.isPending}
        skeletonRows={3}
        rowKey={(a) => a.id}
        rowProps={(a) => ({ 'data-account-id': a.id, className: a.enabled ? undefined : 'muted-row' })}
        empty={<EmptyState title={t('accounts.none')}>{t('accounts.noneText')}</EmptyState>}
        columns={[
          {
            id: 'name',
            header: t('accounts.columns.name'),
            cell: (a) => (
              <>
                <div className="cell-name">{a.name}</div>
                <div className="cell-sub">{a.iban ? formatIban(a.iban) : a.institution.name}</div>
              </>
            ),
          },
          { id: 'type', header: t('accounts.columns.type'), cell: (a) => t(`accounts.types.${a.type}`) },
          {
            id: 'kind',
            header: t('accounts.columns.kind'),
            cell: (a) => (
              <>
                <div>{a.manual ? t('accounts.manual') : t('accounts.connected')}</div>
                {a.enabled ? null : <span className="status-pill">{t('accounts.archivedPill')}</span>}
              </>
            ),
          },
          {
            id: 'balance',
            header: t('accounts.columns.balance'),
            numeric: true,
            className: 'money',
            cell: (a) => formatAmount(a.balance.amount, a.balance.currency),
          },
          {
            id: 'actions',
            header: t('common:actions'),
            srOnlyHeader: true,
            className: 'num actions-cell',
            cell: (a) =>
              mayManage ? (
                <div className="row-actions">
                  <button type="button" className="btn small" onClick={() => setEditing({ account: a })}>
                    {t('accounts.edit')}
                    <span className="sr-only">: {a.name}</span>
                  </button>
                  <button type="button" className="btn small" onClick={() => void setEnabled(a, !a.enabled)}>
                    {a.enabled ? t('accounts.archive') : t('accounts.restore')}
                    <span className="sr-only">: {a.name}</span>
                  </button>
                  <button type="button" className="btn small danger" onClick={() => setDeleting(a)}>
                    {t('common:delete')}
                    <span className="sr-only">: {a.name}</span>
                  </button>
                </div>
              ) : null,
          },
        ]}
      />
      {editing ? <AccountForm account={editing.account} onClose={() => setEditing(null)} /> : null}
      {deleting ? (
        <DeleteAccount account={deleting} onArchive={() => void setEnabled(deleting, false)} onClose={() => setDeleting(null)} />
      ) : null}
    </section>
  );
}

/** Delete: asked first; a refusal because of its transactions offers archiving, or deleting them with it. */
function DeleteAccount({ account, onArchive, onClose }: { account: BankAccount; onArchive: () => void; onClose: () => void }) {
  const { t } = useTranslation('team');
  const remove = useWrite(bankAccountRoutes.delete);
  const toast = useToasts();
  const [hasTransactions, setHasTransactions] = useState(false);
  const run = async (cascade: boolean) => {
    try {
      const gone = await remove.mutateAsync({ params: { id: account.id }, query: cascade ? { cascade: true } : {} });
      toast.show(
        gone.transactionsDeleted
          ? t('accounts.deleted', { name: account.name, count: gone.transactionsDeleted })
          : t('accounts.deletedEmpty', { name: account.name }),
      );
      onClose();
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 409 && !cascade) setHasTransactions(true);
      else {
        toast.error(err, t('accounts.deleteFailed'));
        onClose();
      }
    }
  };
  if (hasTransactions)
    return (
      <ConfirmDialog
        title={t('accounts.hasTransactionsTitle', { name: account.name })}
        body={
          <>
            <p>{t('accounts.hasTransactionsText')}</p>
            <p>
              <button
                type="button"
                className="btn"
                onClick={() => {
                  onArchive();
                  onClose();
                }}
              >
                {t('accounts.archiveInstead')}
              </button>
            </p>
          </>
        }
        confirmLabel={t('accounts.deleteWithTransactions')}
        danger
        busy={remove.isPending}
        onConfirm={() => void run(true)}
        onCancel={onClose}
      />
    );
  return (
    <ConfirmDialog
      title={t('accounts.deleteTitle', { name: account.name })}
      body={<p>{t('accounts.deleteText')}</p>}
      confirmLabel={t('accounts.deleteConfirm')}
      danger
      busy={remove.isPending}
      onConfirm={() => void run(false)}
      onCancel={onClose}
    />
  );
}

function AccountForm({ account, onClose }: { account: BankAccount | null; onClose: () => void }) {
  const { t, i18n } = useTranslation('team');
  const teams = useRead(teamRoutes.list);
  const base = teams.data?.data[0]?.baseCurrency ?? 'EUR';
  const { values, errors, setErrors, set } = useFormState<AccountValues>(() =>
    account ? accountValues(account) : newAccountValues(base),
  );
  const create = useWrite(bankAccountRoutes.create);
  const update = useWrite(bankAccountRoutes.update);
  const toast = useToasts();
  const currencies = useMemo(() => currencyOptions(i18n.language), [i18n.language]);
  const busy = create.isPending || update.isPending;
  const title = account ? t('accounts.form.editTitle', { name: account.name }) : t('accounts.form.newTitle');

  async function submit(e?: FormEvent) {
    e?.preventDefault();
    const made = account ? patchBody(account, values) : createBody(values);
    if (!made.body) return setErrors(made.errors as Record<string, string>);
    try {
      if (account) {
        if (Object.keys(made.body).length) await update.mutateAsync({ params: { id: account.id }, body: made.body });
      } else await create.mutateAsync({ body: made.body as Parameters<typeof create.mutateAsync>[0]['body'] });
      toast.show(
        account ? t('accounts.saved', { name: values.name.trim() }) : t('accounts.created', { name: values.name.trim() }),
      );
      onClose();
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 422) {
        const fields = fieldErrorsFrom(
          err,
          new Set(['name', 'currency', 'type', 'iban', 'openingBalance', 'openingDate', 'balance']),
        );
        const { openingBalance, ...rest } = fields;
        setErrors({ ...rest, ...(openingBalance ? { balance: openingBalance } : {}) });
      } else toast.error(err, t('accounts.saveFailed'));
    }
  }

  const text = (field: keyof AccountValues, label: string, opts: { required?: boolean; hint?: string; type?: string } = {}) => (
    <TextField
      name={field}
      label={label}
      value={values[field]}
      onChange={set(field)}
      error={errors[field]}
      hint={opts.hint}
      required={opts.required}
      type={opts.type}
      inputMode={field === 'balance' ? 'decimal' : undefined}
    />
  );

  return (
    <Drawer title={title} onClose={onClose} onSubmit={() => void submit()} busy={busy}>
      <form id="account-form" className="drawer-body" onSubmit={submit} noValidate>
        <div className="grid-2">
          {text('name', t('accounts.form.name'), { required: true })}
          <Field label={t('accounts.form.type')}>
            {({ id }) => (
              <select id={id} name="type" className="select" value={values.type} onChange={set('type')}>
                {ACCOUNT_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {t(`accounts.types.${type}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {account ? null : (
            <Field label={t('accounts.form.currency')} error={errors.currency}>
              {({ id, describedBy }) => (
                <select
                  id={id}
                  name="currency"
                  className="select"
                  value={values.currency}
                  onChange={set('currency')}
                  aria-describedby={describedBy}
                >
                  {currencies.map((c) => (
                    <option key={c.code} value={c.code}>
                      {c.label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )}
          {text('iban', t('accounts.form.iban'), { hint: t('accounts.form.ibanHint') })}
          {account && !account.manual
            ? null
            : text('balance', account ? t('accounts.form.balanceToday') : t('accounts.form.openingBalance'), {
                hint: account
                  ? t('accounts.form.balanceTodayHint', { amount: formatAmount(account.balance.amount, account.currency) })
                  : t('accounts.form.openingBalanceHint'),
              })}
          {account
            ? null
            : text('openingDate', t('accounts.form.openingDate'), { type: 'date', hint: t('accounts.form.openingDateHint') })}
        </div>
      </form>
      <div className="drawer-footer">
        <button type="submit" form="account-form" className="btn primary" disabled={busy}>
          {account ? t('accounts.form.save') : t('accounts.form.create')}
          <Kbd k="Ctrl ↵" />
        </button>
        <button type="button" className="btn" onClick={onClose} disabled={busy}>
          {t('common:cancel')}
        </button>
      </div>
    </Drawer>
  );
}
