/**
 * The stress-test builder: the six drivers, each with validated inputs (the server's field errors shown at the
 * field), a live preview (computed by the server without saving, 500 ms after the last edit), baseline against
 * stressed cash, each driver's impact; save; saved tests reopened into the builder; two or more compared side by side.
 */
import type { TFunction } from 'i18next';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import { appMetricRoutes } from '../../../src-shared/contract/app-metrics';
import { metricRoutes, type StressTest } from '../../../src-shared/contract/metrics';
import { DataTable } from '../../components/table/DataTable';
import { ConfirmDialog, ErrorBanner } from '../../components/ui';
import { useCursorList } from '../../data/use-cursor-list';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { t as translate } from '../../i18n';
import { api } from '../../lib/api';
import { formatAmount, formatDateTime, formatMonth, formatNumber } from '../../lib/format';
import { useToasts } from '../../stores/toasts';
import { CashChart, type CashLine } from './charts';
import {
  DRIVER_KINDS,
  type DriverDraft,
  type DriverKind,
  driverErrors,
  fromSent,
  missingInputs,
  newDriver,
  toDrivers,
} from './drivers';
import type { Inputs } from './RunwayScreen';

type Preview = Omit<StressTest, 'id' | 'createdAt'>;

/** A driver kind in words ("Revenue shock"). */
const kindName = (kind: string) => translate(`runway:drivers.kinds.${kind}`);
/** A saved test's name, or a word for one without. */
const nameOf = (test: { name: string | null }) => test.name ?? translate('runway:stress.untitled');
/** When the cash runs out: a month, or not within the horizon. */
const runsOut = (month: string | null) =>
  month ? translate('runway:stress.runsOutIn', { month: formatMonth(month, 'long') }) : translate('runway:stress.lasts');

export function StressTests({ inputs }: { inputs: Inputs }) {
  const { t } = useTranslation('runway');
  const [drivers, setDrivers] = useState<DriverDraft[]>(() => [newDriver('RevenueShock')]);
  const [horizon, setHorizon] = useState(12);
  const [name, setName] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [updating, setUpdating] = useState(false);
  const [compare, setCompare] = useState<string[]>([]);
  const save = useWrite(metricRoutes.stressTest);
  const saved = useCursorList(metricRoutes.listStressTests, { pageSize: 20 });
  const toast = useToasts();
  const seq = useRef(0);
  const addId = useId();

  const body = useMemo(
    () => ({
      from: inputs.from,
      to: inputs.to,
      horizonMonths: horizon,
      currency: inputs.currency || undefined,
      drivers: toDrivers(drivers),
    }),
    [inputs.from, inputs.to, inputs.currency, horizon, drivers],
  );

  // Inputs left empty are said at their field at once, and nothing is asked of the server until they are filled.
  const missing = useMemo(
    () => missingInputs(drivers, (input) => (input === 'date' ? t('drivers.dateRequired') : t('drivers.required'))),
    [drivers, t],
  );
  const incomplete = Object.keys(missing).length > 0;

  // The live preview: the server's own computation, 500 ms after the last edit; an older answer never overwrites a newer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `missing` follows the drivers, which `body` holds
  useEffect(() => {
    const mine = ++seq.current;
    if (incomplete) {
      setErrors(missing);
      setUpdating(false);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      setUpdating(true);
      try {
        const result = await api.call(appMetricRoutes.previewStressTest, { body, signal: controller.signal });
        if (mine !== seq.current) return;
        setPreview(result);
        setErrors({});
        setFormError(null);
      } catch (err) {
        if (mine !== seq.current || (err as Error).name === 'AbortError') return;
        if (err instanceof ApiClientError && err.status === 422) {
          const { fields, rest } = driverErrors(err.fields);
          setErrors(fields);
          setFormError(rest);
        } else setFormError((err as Error).message);
      } finally {
        if (mine === seq.current) setUpdating(false);
      }
    }, 500);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [body]);

  async function onSave() {
    if (incomplete) {
      setErrors(missing);
      toast.show(t('stress.fillFirst'));
      return;
    }
    try {
      const result = await save.mutateAsync({
        body: { ...body, name: name.trim() || undefined },
        idempotencyKey: crypto.randomUUID(),
      });
      toast.show(t('stress.saved', { name: result.name ?? t('stress.title') }));
      setName('');
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 422) {
        const { fields, rest } = driverErrors(err.fields);
        setErrors(fields);
        setFormError(rest);
      }
      toast.error(err, t('stress.saveFailed'));
    }
  }

  async function reopen(id: string) {
    try {
      const test = await api.call(metricRoutes.getStressTest, { params: { id } });
      setDrivers(test.drivers.map(fromSent));
      setHorizon(test.horizonMonths);
      setName(test.name ?? '');
      toast.show(t('stress.opened', { name: test.name ?? t('stress.title') }));
    } catch (err) {
      toast.error(err, t('stress.openFailed'));
    }
  }

  const update = (key: number, patch: Record<string, string>) =>
    setDrivers((ds) => ds.map((d) => (d.key === key ? { ...d, values: { ...d.values, ...patch } } : d)));

  return (
    <section className="stress" aria-labelledby="stress-title">
      <div className="section-head">
        <h2 id="stress-title">{t('stress.title')}</h2>
        <p className="muted">{t('stress.intro')}</p>
      </div>
      <div className="stress-grid">
        <div className="card stress-builder">
          <div className="builder-top">
            <label className="filter">
              <span>{t('stress.horizon')}</span>
              <select className="select" value={horizon} onChange={(e) => setHorizon(Number(e.target.value))}>
                {[6, 12, 18, 24].map((n) => (
                  <option key={n} value={n}>
                    {t('months', { count: n })}
                  </option>
                ))}
              </select>
            </label>
            <label className="filter grow" htmlFor={addId}>
              <span>{t('stress.addDriver')}</span>
              <select
                id={addId}
                className="select"
                value=""
                onChange={(e) => {
                  if (e.target.value) setDrivers((ds) => [...ds, newDriver(e.target.value as DriverKind)]);
                }}
              >
                <option value="">{t('stress.chooseDriver')}</option>
                {DRIVER_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {kindName(k)}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {formError ? (
            <div className="banner error" role="alert">
              {formError}
            </div>
          ) : null}
          {drivers.length === 0 ? <p className="faint">{t('stress.noDriver')}</p> : null}
          {drivers.map((d, i) => (
            <DriverEditor
              key={d.key}
              index={i}
              draft={d}
              errors={errors}
              onChange={(patch) => update(d.key, patch)}
              onRemove={() => setDrivers((ds) => ds.filter((x) => x.key !== d.key))}
            />
          ))}
          <div className="save-row">
            <label className="field grow">
              <span className="label">{t('stress.name')}</span>
              <input
                className="input"
                value={name}
                onChange={(e) => setName(e.target.value)}
                placeholder={t('stress.namePlaceholder')}
                maxLength={200}
              />
            </label>
            <button type="button" className="btn primary" onClick={() => void onSave()} disabled={save.isPending}>
              {save.isPending ? t('stress.saving') : t('stress.save')}
            </button>
          </div>
        </div>
        <div className="card stress-result" aria-live="polite" aria-busy={updating}>
          <div className="chart-head">
            <h3>{t('stress.resultTitle')}</h3>
            <span className={`faint small updating ${updating ? 'on' : ''}`}>{t('stress.updating')}</span>
          </div>
          {preview ? (
            <PreviewView preview={preview} />
          ) : (
            <div className="chart-box chart-skeleton">
              <span className="faint">{t('stress.computing')}</span>
            </div>
          )}
        </div>
      </div>
      <SavedTests saved={saved} compare={compare} setCompare={setCompare} onOpen={(id) => void reopen(id)} />
      {compare.length >= 2 ? <Comparison ids={compare} /> : null}
    </section>
  );
}

function DriverEditor(props: {
  index: number;
  draft: DriverDraft;
  errors: Record<string, string>;
  onChange: (patch: Record<string, string>) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation('runway');
  const { draft, index } = props;
  const field = (name: string, label: string, opts: { type?: string; hint?: string; step?: string } = {}) => {
    const error = props.errors[`${index}.${name}`];
    const id = `drv-${draft.key}-${name}`;
    return (
      <div className="field" key={name}>
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          className="input"
          type={opts.type ?? 'number'}
          step={opts.step ?? 'any'}
          value={draft.values[name] ?? ''}
          onChange={(e) => props.onChange({ [name]: e.target.value })}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `${id}-err` : opts.hint ? `${id}-hint` : undefined}
        />
        {error ? (
          <span className="error" id={`${id}-err`} role="alert">
            {error}
          </span>
        ) : opts.hint ? (
          <span className="hint" id={`${id}-hint`}>
            {opts.hint}
          </span>
        ) : null}
      </div>
    );
  };
  const fields = (() => {
    switch (draft.kind) {
      case 'RevenueShock':
        return [
          field('pct', t('drivers.revenuePct'), { hint: t('drivers.revenuePctHint') }),
          field('months', t('drivers.forMonths'), { step: '1' }),
          field('startOffset', t('drivers.startAfter'), { step: '1', hint: t('drivers.startAfterHint') }),
        ];
      case 'CollectionDelay':
        return [field('days', t('drivers.days'), { step: '1', hint: t('drivers.daysHint') })];
      case 'ExpenseSurge':
        return [
          field('pct', t('drivers.costsPct'), { hint: t('drivers.costsPctHint') }),
          field('months', t('drivers.forMonths'), { step: '1', hint: t('drivers.forMonthsHint') }),
          field('startMonthOffset', t('drivers.startAfter'), { step: '1' }),
        ];
      case 'OneTimeExpense':
        return [
          field('amount', t('drivers.amount')),
          field('date', t('drivers.on'), { type: 'date', hint: t('drivers.onHint') }),
        ];
      case 'HiringPlan':
        return [
          field('headcountDelta', t('drivers.people'), { step: '1', hint: t('drivers.peopleHint') }),
          field('monthlyCostPerHead', t('drivers.costPerHead')),
          field('startMonthOffset', t('drivers.startAfter'), { step: '1' }),
          field('rampMonths', t('drivers.ramp'), { step: '1' }),
        ];
      case 'FxShock':
        return [
          <div className="field" key="base">
            <label htmlFor={`drv-${draft.key}-base`}>{t('drivers.fxBase')}</label>
            <input
              id={`drv-${draft.key}-base`}
              className="input"
              value={draft.values.base ?? ''}
              maxLength={3}
              onChange={(e) => props.onChange({ base: e.target.value.toUpperCase() })}
              aria-invalid={Boolean(props.errors[`${index}.base`])}
            />
            {props.errors[`${index}.base`] ? (
              <span className="error" role="alert">
                {props.errors[`${index}.base`]}
              </span>
            ) : null}
          </div>,
          field('pct', t('drivers.fxPct'), { hint: t('drivers.fxPctHint') }),
        ];
    }
  })();
  return (
    <fieldset className="driver">
      <legend>
        {index + 1}. {kindName(draft.kind)}
      </legend>
      <div className="driver-fields">{fields}</div>
      <button type="button" className="btn ghost small driver-remove" onClick={props.onRemove}>
        {t('drivers.remove')}
        <span className="sr-only"> {kindName(draft.kind)}</span>
      </button>
    </fieldset>
  );
}

function PreviewView({ preview }: { preview: Preview }) {
  const { t } = useTranslation('runway');
  const months = preview.stressed.months.map((m) => m.month);
  const c = preview.currency;
  return (
    <>
      <CashChart
        months={months}
        currency={c}
        label={t('stress.chartLabel', {
          baseline: formatAmount(preview.baseline.endingCash, c),
          stressed: formatAmount(preview.stressed.endingCash, c),
        })}
        lines={[
          { label: t('stress.baseline'), values: preview.baseline.months.map((m) => m.cash), baseline: true },
          { label: t('stress.stressed'), values: preview.stressed.months.map((m) => m.cash) },
        ]}
      />
      <dl className="stress-facts">
        <div>
          <dt>{t('stress.endingCash')}</dt>
          <dd>
            {formatAmount(preview.stressed.endingCash, c)}{' '}
            <span className="faint">{t('stress.versus', { amount: formatAmount(preview.baseline.endingCash, c) })}</span>
          </dd>
        </div>
        <div>
          <dt>{t('stress.lowestCash')}</dt>
          <dd>
            {formatAmount(preview.stressed.lowestCash.amount, c)}{' '}
            <span className="faint">
              {t('stress.inMonth', { month: formatMonth(preview.stressed.lowestCash.month, 'long') })}
            </span>
          </dd>
        </div>
        <div>
          <dt>{t('stress.cash')}</dt>
          <dd className={preview.stressed.runsOutIn ? 'burn' : ''}>
            {runsOut(preview.stressed.runsOutIn)}{' '}
            <span className="faint">{t('stress.baselineThen', { what: runsOut(preview.baseline.runsOutIn) })}</span>
          </dd>
        </div>
      </dl>
      <DataTable
        label={t('stress.impacts')}
        className="compact"
        hideWhenEmpty
        rows={preview.impacts}
        rowKey={(i) => i.index}
        columns={[
          { id: 'driver', header: t('stress.driver'), cell: (i) => `${i.index + 1}. ${kindName(i.kind)}` },
          { id: 'in', header: t('stress.moneyIn'), numeric: true, className: 'money', cell: (i) => formatAmount(i.inflow, c) },
          { id: 'out', header: t('stress.moneyOut'), numeric: true, className: 'money', cell: (i) => formatAmount(i.outflow, c) },
          {
            id: 'ending',
            header: t('stress.endingCash'),
            numeric: true,
            className: (i) => `money ${i.endingCash < 0 ? 'burn' : ''}`,
            cell: (i) => formatAmount(i.endingCash, c),
          },
        ]}
      />
      {preview.warnings.length ? (
        <ul className="warnings" lang="en">
          {preview.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

function SavedTests(props: {
  saved: ReturnType<typeof useCursorList<typeof metricRoutes.listStressTests>>;
  compare: string[];
  setCompare: (ids: string[]) => void;
  onOpen: (id: string) => void;
}) {
  const { t } = useTranslation('runway');
  const { saved, compare, setCompare } = props;
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<{ id: string; name: string | null } | null>(null);
  const rename = useWrite(metricRoutes.renameStressTest);
  const remove = useWrite(metricRoutes.deleteStressTest);
  const toast = useToasts();
  return (
    <div className="card">
      {deleting ? (
        <ConfirmDialog
          title={t('saved.deleteTitle', { name: nameOf(deleting) })}
          body={<p>{t('saved.deleteText')}</p>}
          confirmLabel={t('saved.deleteConfirm')}
          danger
          busy={remove.isPending}
          onCancel={() => setDeleting(null)}
          onConfirm={() =>
            remove
              .mutateAsync({ params: { id: deleting.id } })
              .then(() => {
                setCompare(compare.filter((x) => x !== deleting.id));
                toast.show(t('saved.deleted', { name: nameOf(deleting) }));
              })
              .catch((err) => toast.error(err, t('saved.deleteFailed')))
              .finally(() => setDeleting(null))
          }
        />
      ) : null}
      <div className="chart-head padded">
        <h3>{t('saved.title')}</h3>
        <span className="faint small">{t('saved.intro')}</span>
      </div>
      {saved.error ? <ErrorBanner error={saved.error} onRetry={saved.refetch} /> : null}
      <DataTable
        label={t('saved.title')}
        className="compact"
        wrap
        hideWhenEmpty
        empty={<p className="faint padded">{t('saved.none')}</p>}
        loading={saved.isLoading}
        rows={saved.items}
        rowKey={(test) => test.id}
        rowProps={(test) => ({ 'data-stress-id': test.id })}
        columns={[
          {
            id: 'compare',
            header: t('saved.compare'),
            cell: (test) => (
              <input
                type="checkbox"
                aria-label={t('saved.compareOne', { name: nameOf(test) })}
                checked={compare.includes(test.id)}
                onChange={(e) =>
                  setCompare(e.target.checked ? [...compare, test.id].slice(-10) : compare.filter((x) => x !== test.id))
                }
              />
            ),
          },
          {
            id: 'name',
            header: t('stress.name'),
            cell: (test) =>
              renaming === test.id ? (
                <RenameField
                  initial={test.name ?? ''}
                  label={t('saved.newName', { name: nameOf(test) })}
                  onDone={(name) => {
                    setRenaming(null);
                    if (name !== null && name !== (test.name ?? ''))
                      rename
                        .mutateAsync({ params: { id: test.id }, body: { name } })
                        .then(() => toast.show(t('saved.renamed', { name: name || t('stress.untitled') })))
                        .catch((err) => toast.error(err, t('saved.renameFailed')));
                  }}
                />
              ) : (
                <div className="cell-text wide">{nameOf(test)}</div>
              ),
          },
          { id: 'saved', header: t('saved.saved'), className: 'date', cell: (test) => formatDateTime(test.createdAt) },
          {
            id: 'drivers',
            header: t('saved.drivers'),
            numeric: true,
            className: 'num',
            cell: (test) => formatNumber(test.drivers),
          },
          {
            id: 'ending',
            header: t('stress.endingCash'),
            numeric: true,
            className: 'money',
            cell: (test) => formatAmount(test.endingCash.stressed, test.currency),
          },
          { id: 'runs-out', header: t('saved.runsOut'), cell: (test) => runsOut(test.runsOutIn.stressed) },
          {
            id: 'actions',
            header: t('common:actions'),
            srOnlyHeader: true,
            className: 'num',
            cell: (test) => (
              <div className="row-actions">
                <button type="button" className="btn small" onClick={() => props.onOpen(test.id)}>
                  {t('saved.open')}
                  <span className="sr-only"> {nameOf(test)}</span>
                </button>
                <button type="button" className="btn small" onClick={() => setRenaming(test.id)}>
                  {t('saved.rename')}
                  <span className="sr-only"> {nameOf(test)}</span>
                </button>
                <button type="button" className="btn small danger" onClick={() => setDeleting(test)}>
                  {t('common:delete')}
                  <span className="sr-only"> {nameOf(test)}</span>
                </button>
              </div>
            ),
          },
        ]}
      />
    </div>
  );
}

type ComparisonResult = NonNullable<ReturnType<typeof useRead<typeof metricRoutes.compareStressTests>>['data']>;

/**
 * The baseline of the compared tests, drawn in its own style: one line when they share it (the same window and
 * forecast), else each test's own.
 */
function baselineLines(r: ComparisonResult, t: TFunction<'runway'>): CashLine[] {
  const series = r.tests.map((_, i) => r.months.map((m) => m.baseline[i] ?? null));
  const shared = series.every((s) => s.every((v, m) => v === series[0]?.[m]));
  if (shared && series[0]) return [{ label: t('compare.baseline'), values: series[0], baseline: true }];
  return series.map((values, i) => ({
    label: t('compare.baselineOf', { name: nameOf(r.tests[i] ?? { name: null }) }),
    values,
    baseline: true,
  }));
}

/** A saved test's name edited in its row: Enter keeps it, Esc (or leaving the field) gives up. */
function RenameField(props: { initial: string; label: string; onDone: (name: string | null) => void }) {
  const [value, setValue] = useState(props.initial);
  return (
    <input
      className="input"
      aria-label={props.label}
      value={value}
      maxLength={200}
      // biome-ignore lint/a11y/noAutofocus: the field appears where the person asked to rename
      autoFocus
      onChange={(e) => setValue(e.target.value)}
      onBlur={() => props.onDone(null)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') props.onDone(value.trim());
        else if (e.key === 'Escape') {
          e.stopPropagation();
          props.onDone(null);
        }
      }}
    />
  );
}

function Comparison({ ids }: { ids: string[] }) {
  const { t } = useTranslation('runway');
  const result = useRead(metricRoutes.compareStressTests, { query: { ids } });
  const r = result.data;
  if (result.error) return <ErrorBanner error={result.error} onRetry={() => void result.refetch()} />;
  if (!r) return <div className="card chart-box chart-skeleton" aria-busy="true" />;
  const currency = r.tests[0]?.currency ?? 'EUR';
  return (
    <section className="card comparison" aria-label={t('compare.label')}>
      <div className="chart-head padded">
        <h3>{t('compare.title')}</h3>
        {!r.sameCurrency ? <span className="error">{t('compare.currencies')}</span> : null}
      </div>
      <CashChart
        months={r.months.map((m) => m.month)}
        currency={currency}
        label={t('compare.chartLabel', { count: r.tests.length })}
        lines={[
          ...baselineLines(r, t),
          ...r.tests.map((test, i) => ({
            label: test.name ?? t('compare.test', { n: i + 1 }),
            values: r.months.map((m) => m.cash[i] ?? null),
          })),
        ]}
      />
      <div className="compare-cols">
        {r.tests.map((test) => (
          <dl key={test.id} className="compare-col">
            <dt className="compare-name">{nameOf(test)}</dt>
            <dd>
              {t('stress.endingCash')} <strong>{formatAmount(test.endingCash.stressed, test.currency)}</strong>
              <span className="faint">
                {' '}
                {t('stress.baselineThen', { what: formatAmount(test.endingCash.baseline, test.currency) })}
              </span>
            </dd>
            <dd>
              {t('stress.lowestCash')} <strong>{formatAmount(test.lowestCash.stressed, test.currency)}</strong>
            </dd>
            <dd>{runsOut(test.runsOutIn.stressed)}</dd>
            <dd className="faint">
              {t('compare.drivers', { count: test.drivers })} · {t('months', { count: test.horizonMonths })} · {test.currency}
            </dd>
          </dl>
        ))}
      </div>
    </section>
  );
}
