/**
 * A draft from tracked time: a billable project's unbilled entries (all, or those in a date range) become one line,
 * hours × the project's rate, for the project's customer (docs/decisions/0077); the entries are billed on it until
 * the draft is canceled or deleted.
 */
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Invoice, invoiceRoutes } from '../../../src-shared/contract/invoices';
import { trackerRoutes } from '../../../src-shared/contract/tracker';
import { DateField } from '../../components/DateField';
import { ErrorBanner, Field, Kbd } from '../../components/ui';
import { useCursorList } from '../../data/use-cursor-list';
import { useWrite } from '../../data/use-write';
import { formatAmount, formatDuration } from '../../lib/format';
import { useToasts } from '../../stores/toasts';

export function FromTrackedTime(props: {
  busy: boolean;
  setBusy: (busy: boolean) => void;
  onClose: () => void;
  onCreated: (invoice: Invoice) => void;
  projectId?: string;
}) {
  const { t } = useTranslation('invoices');
  const projects = useCursorList(trackerRoutes.listProjects, { billable: true, pageSize: 100, sort: ['time', 'desc'] });
  const billable = projects.items.filter((p) => p.unbilledDuration > 0 && p.rate !== null);
  const [projectId, setProjectId] = useState(props.projectId ?? '');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [unreadable, setUnreadable] = useState({ from: false, to: false });
  const [failure, setFailure] = useState<unknown>(null);
  const create = useWrite(invoiceRoutes.fromTracker);
  const toast = useToasts((s) => s.show);
  const chosen = projects.items.find((p) => p.id === (projectId || billable[0]?.id));

  async function submit(e?: FormEvent) {
    e?.preventDefault();
    // a bound whose text is not a day (shown under it) must not turn into "no bound"
    if (props.busy || !chosen || unreadable.from || unreadable.to) return;
    props.setBusy(true);
    setFailure(null);
    try {
      const invoice = await create.mutateAsync({
        body: { projectId: chosen.id, ...(from ? { from } : {}), ...(to ? { to } : {}) },
      });
      toast(t('form.created', { number: invoice.invoiceNumber ?? t('numberPending') }));
      props.onClose();
      props.onCreated(invoice);
    } catch (err) {
      setFailure(err);
    } finally {
      props.setBusy(false);
    }
  }

  return (
    <>
      <form
        id="invoice-time-form"
        className="drawer-body"
        noValidate
        onSubmit={(e) => void submit(e)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void submit();
          }
        }}
      >
        <p className="muted">{t('fromTime.intro')}</p>
        {failure ? <ErrorBanner error={failure} /> : null}
        {projects.error ? <ErrorBanner error={projects.error} onRetry={projects.refetch} /> : null}
        {projects.isLoading ? (
          <p className="faint">{t('common:loading')}</p>
        ) : billable.length === 0 && !chosen ? (
          <div className="banner info" role="status">
            {t('fromTime.nothing')}
          </div>
        ) : (
          <>
            <Field label={t('fromTime.project')} required>
              {({ id }) => (
                <select
                  id={id}
                  className="select"
                  value={chosen?.id ?? ''}
                  onChange={(e) => setProjectId(e.target.value)}
                  // biome-ignore lint/a11y/noAutofocus: the drawer opens on its first field
                  autoFocus
                >
                  {(chosen && !billable.includes(chosen) ? [chosen, ...billable] : billable).map((p) => (
                    <option key={p.id} value={p.id}>
                      {t('fromTime.option', {
                        name: p.name,
                        time: formatDuration(p.unbilledDuration * 1000),
                      })}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {chosen ? (
              <dl className="facts tight" data-testid="unbilled">
                <dt>{t('fromTime.customer')}</dt>
                <dd>{chosen.customer?.name ?? t('noCustomer')}</dd>
                <dt>{t('fromTime.rate')}</dt>
                <dd>
                  {chosen.rate !== null && chosen.currency
                    ? t('fromTime.perHour', { amount: formatAmount(chosen.rate, chosen.currency) })
                    : '—'}
                </dd>
                <dt>{t('fromTime.unbilled')}</dt>
                <dd>
                  {formatDuration(chosen.unbilledDuration * 1000)} · {formatAmount(chosen.unbilledAmount, chosen.currency)}
                </dd>
              </dl>
            ) : null}
            <div className="grid-2">
              <DateField
                label={t('fromTime.from')}
                hint={t('fromTime.rangeHint')}
                value={from}
                max={to || undefined}
                onChange={(day, valid) => {
                  setFrom(day);
                  setUnreadable((u) => ({ ...u, from: !valid }));
                }}
              />
              <DateField
                label={t('fromTime.to')}
                value={to}
                min={from || undefined}
                onChange={(day, valid) => {
                  setTo(day);
                  setUnreadable((u) => ({ ...u, to: !valid }));
                }}
              />
            </div>
          </>
        )}
      </form>
      <div className="drawer-footer">
        <button type="submit" form="invoice-time-form" className="btn primary" disabled={props.busy || !chosen}>
          {t('fromTime.create')} <Kbd k="Ctrl ↵" />
        </button>
        <span className="spacer" />
        <button type="button" className="btn ghost" onClick={props.onClose} disabled={props.busy}>
          {t('common:cancel')}
        </button>
      </div>
    </>
  );
}
