/**
 * The stress-test builder: the six drivers, each with validated inputs (the server's field errors shown at the
 * field), a live preview (computed by the server without saving, 500 ms after the last edit), baseline against
 * stressed cash, each driver's impact; save; saved tests reopened into the builder; two or more compared side by side.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { ApiClientError } from '../../../src-shared/api-client';
import { appMetricRoutes } from '../../../src-shared/contract/app-metrics';
import { metricRoutes, type StressTest } from '../../../src-shared/contract/metrics';
import { DataTable } from '../../components/table/DataTable';
import { ErrorBanner } from '../../components/ui';
import { useCursorList } from '../../data/use-cursor-list';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { api } from '../../lib/api';
import { formatAmount, formatDateTime, formatNumber } from '../../lib/format';
import { useToasts } from '../../stores/toasts';
import { CashChart } from './charts';
import {
  DRIVER_KINDS,
  type DriverDraft,
  type DriverKind,
  driverErrors,
  fromSent,
  KIND_LABELS,
  newDriver,
  toDrivers,
} from './drivers';
import type { Inputs } from './RunwayScreen';

type Preview = Omit<StressTest, 'id' | 'createdAt'>;

export function StressTests({ inputs }: { inputs: Inputs }) {
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

  // The live preview: the server's own computation, 500 ms after the last edit; an older answer never overwrites a newer.
  useEffect(() => {
    const mine = ++seq.current;
    const controller = new AbortController();
    const t = setTimeout(async () => {
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
      clearTimeout(t);
      controller.abort();
    };
  }, [body]);

  async function onSave() {
    try {
      const result = await save.mutateAsync({
        body: { ...body, name: name.trim() || undefined },
        idempotencyKey: crypto.randomUUID(),
      });
      toast.show(`Saved “${result.name ?? 'Stress test'}”`);
      setName('');
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 422) {
        const { fields, rest } = driverErrors(err.fields);
        setErrors(fields);
        setFormError(rest);
      }
      toast.error(err, 'Could not save the stress test');
    }
  }

  async function reopen(id: string) {
    try {
      const t = await api.call(metricRoutes.getStressTest, { params: { id } });
      setDrivers(t.drivers.map(fromSent));
      setHorizon(t.horizonMonths);
      setName(t.name ?? '');
      toast.show(`Opened “${t.name ?? 'Stress test'}” in the builder`);
    } catch (err) {
      toast.error(err, 'Could not open the stress test');
    }
  }

  const update = (key: number, patch: Record<string, string>) =>
    setDrivers((ds) => ds.map((d) => (d.key === key ? { ...d, values: { ...d.values, ...patch } } : d)));

  return (
    <section className="stress" aria-labelledby="stress-title">
      <div className="section-head">
        <h2 id="stress-title">Stress test</h2>
        <p className="muted">Bend the cash-flow forecast with what could happen, and see when the cash would run out.</p>
      </div>
      <div className="stress-grid">
        <div className="card stress-builder">
          <div className="builder-top">
            <label className="filter">
              <span>Months ahead</span>
              <select className="select" value={horizon} onChange={(e) => setHorizon(Number(e.target.value))}>
                {[6, 12, 18, 24].map((n) => (
                  <option key={n} value={n}>
                    {n} months
                  </option>
                ))}
              </select>
            </label>
            <label className="filter grow" htmlFor={addId}>
              <span>Add a driver</span>
              <select
                id={addId}
                className="select"
                value=""
                onChange={(e) => {
                  if (e.target.value) setDrivers((ds) => [...ds, newDriver(e.target.value as DriverKind)]);
                }}
              >
                <option value="">Choose what happens…</option>
                {DRIVER_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {KIND_LABELS[k]}
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
          {drivers.length === 0 ? <p className="faint">No driver: the stressed path is the baseline.</p> : null}
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
              <span className="label">Name</span>
              <input
                className="input"
                value={name}
                onChange={(e) => setName(e.target.value)}
                placeholder="e.g. Lose our biggest client"
                maxLength={200}
              />
            </label>
            <button type="button" className="btn primary" onClick={() => void onSave()} disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save stress test'}
            </button>
          </div>
        </div>
        <div className="card stress-result" aria-live="polite" aria-busy={updating}>
          <div className="chart-head">
            <h3>Baseline and stressed cash</h3>
            <span className={`faint small updating ${updating ? 'on' : ''}`}>Updating…</span>
          </div>
          {preview ? (
            <PreviewView preview={preview} />
          ) : (
            <div className="chart-box chart-skeleton">
              <span className="faint">Computing…</span>
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
          field('pct', 'Revenue change %', { hint: '−100 to 1000; −30 is a 30 % drop' }),
          field('months', 'For months', { step: '1' }),
          field('startOffset', 'Starting after months', { step: '1', hint: '0: the first month' }),
        ];
      case 'CollectionDelay':
        return [field('days', 'Customers pay days later', { step: '1', hint: '0 to 180' })];
      case 'ExpenseSurge':
        return [
          field('pct', 'Costs rise %', { hint: '0 to 1000' }),
          field('months', 'For months', { step: '1', hint: 'empty: to the end' }),
          field('startMonthOffset', 'Starting after months', { step: '1' }),
        ];
      case 'OneTimeExpense':
        return [field('amount', 'Amount'), field('date', 'On', { type: 'date', hint: 'inside the months ahead' })];
      case 'HiringPlan':
        return [
          field('headcountDelta', 'People added', { step: '1', hint: 'negative: leaving' }),
          field('monthlyCostPerHead', 'Monthly cost per person'),
          field('startMonthOffset', 'Starting after months', { step: '1' }),
          field('rampMonths', 'Reached over months', { step: '1' }),
        ];
      case 'FxShock':
        return [
          <div className="field" key="base">
            <label htmlFor={`drv-${draft.key}-base`}>Foreign currency</label>
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
          field('pct', 'Its value changes %', { hint: '−99.99 to 1000' }),
        ];
    }
  })();
  return (
    <fieldset className="driver">
      <legend>
        {index + 1}. {KIND_LABELS[draft.kind]}
      </legend>
      <div className="driver-fields">{fields}</div>
      <button type="button" className="btn ghost small driver-remove" onClick={props.onRemove}>
        Remove<span className="sr-only"> {KIND_LABELS[draft.kind]}</span>
      </button>
    </fieldset>
  );
}

function PreviewView({ preview }: { preview: Preview }) {
  const months = preview.stressed.months.map((m) => m.month);
  const c = preview.currency;
  const runsOut = (p: Preview['stressed']) => (p.runsOutIn ? `runs out in ${p.runsOutIn}` : 'lasts the horizon');
  return (
    <>
      <CashChart
        months={months}
        currency={c}
        label={`Closing cash: baseline ends at ${formatAmount(preview.baseline.endingCash, c)}, stressed at ${formatAmount(preview.stressed.endingCash, c)}`}
        lines={[
          { label: 'Baseline', values: preview.baseline.months.map((m) => m.cash), dashed: true },
          { label: 'Stressed', values: preview.stressed.months.map((m) => m.cash) },
        ]}
      />
      <dl className="stress-facts">
        <div>
          <dt>Ending cash</dt>
          <dd>
            {formatAmount(preview.stressed.endingCash, c)}{' '}
            <span className="faint">vs {formatAmount(preview.baseline.endingCash, c)}</span>
          </dd>
        </div>
        <div>
          <dt>Lowest cash</dt>
          <dd>
            {formatAmount(preview.stressed.lowestCash.amount, c)}{' '}
            <span className="faint">in {preview.stressed.lowestCash.month}</span>
          </dd>
        </div>
        <div>
          <dt>Cash</dt>
          <dd className={preview.stressed.runsOutIn ? 'burn' : ''}>
            {runsOut(preview.stressed)} <span className="faint">(baseline {runsOut(preview.baseline)})</span>
          </dd>
        </div>
      </dl>
      <DataTable
        label="Impact of each driver"
        className="compact"
        hideWhenEmpty
        rows={preview.impacts}
        rowKey={(i) => i.index}
        columns={[
          { id: 'driver', header: 'Driver', cell: (i) => `${i.index + 1}. ${KIND_LABELS[i.kind as DriverKind] ?? i.kind}` },
          { id: 'in', header: 'Money in', numeric: true, className: 'money', cell: (i) => formatAmount(i.inflow, c) },
          { id: 'out', header: 'Money out', numeric: true, className: 'money', cell: (i) => formatAmount(i.outflow, c) },
          {
            id: 'ending',
            header: 'Ending cash',
            numeric: true,
            className: (i) => `money ${i.endingCash < 0 ? 'burn' : ''}`,
            cell: (i) => formatAmount(i.endingCash, c),
          },
        ]}
      />
      {preview.warnings.length ? (
        <ul className="warnings">
          {preview.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

const nameOf = (t: { name: string | null }) => t.name ?? 'Untitled';

function SavedTests(props: {
  saved: ReturnType<typeof useCursorList<typeof metricRoutes.listStressTests>>;
  compare: string[];
  setCompare: (ids: string[]) => void;
  onOpen: (id: string) => void;
}) {
  const { saved, compare, setCompare } = props;
  return (
    <div className="card">
      <div className="chart-head padded">
        <h3>Saved stress tests</h3>
        <span className="faint small">Tick two or more to compare them side by side.</span>
      </div>
      {saved.error ? <ErrorBanner error={saved.error} onRetry={saved.refetch} /> : null}
      <DataTable
        label="Saved stress tests"
        className="compact"
        wrap
        hideWhenEmpty
        empty={<p className="faint padded">No saved stress test yet. Build one above and save it.</p>}
        loading={saved.isLoading}
        rows={saved.items}
        rowKey={(t) => t.id}
        rowProps={(t) => ({ 'data-stress-id': t.id })}
        columns={[
          {
            id: 'compare',
            header: 'Compare',
            cell: (t) => (
              <input
                type="checkbox"
                aria-label={`Compare ${nameOf(t)}`}
                checked={compare.includes(t.id)}
                onChange={(e) => setCompare(e.target.checked ? [...compare, t.id].slice(-10) : compare.filter((x) => x !== t.id))}
              />
            ),
          },
          { id: 'name', header: 'Name', cell: (t) => <div className="cell-text wide">{nameOf(t)}</div> },
          { id: 'saved', header: 'Saved', className: 'date', cell: (t) => formatDateTime(t.createdAt) },
          { id: 'drivers', header: 'Drivers', numeric: true, className: 'num', cell: (t) => t.drivers },
          {
            id: 'ending',
            header: 'Ending cash',
            numeric: true,
            className: 'money',
            cell: (t) => formatAmount(t.endingCash.stressed, t.currency),
          },
          { id: 'runs-out', header: 'Runs out', cell: (t) => t.runsOutIn.stressed ?? 'lasts' },
          {
            id: 'actions',
            header: 'Actions',
            srOnlyHeader: true,
            className: 'num',
            cell: (t) => (
              <button type="button" className="btn small" onClick={() => props.onOpen(t.id)}>
                Open<span className="sr-only"> {nameOf(t)}</span>
              </button>
            ),
          },
        ]}
      />
    </div>
  );
}

function Comparison({ ids }: { ids: string[] }) {
  const result = useRead(metricRoutes.compareStressTests, { query: { ids } });
  const r = result.data;
  if (result.error) return <ErrorBanner error={result.error} onRetry={() => void result.refetch()} />;
  if (!r) return <div className="card chart-box chart-skeleton" aria-busy="true" />;
  const currency = r.tests[0]?.currency ?? 'EUR';
  return (
    <section className="card comparison" aria-label="Comparison of saved stress tests">
      <div className="chart-head padded">
        <h3>Side by side</h3>
        {!r.sameCurrency ? (
          <span className="error">These tests are in different currencies: their figures do not compare.</span>
        ) : null}
      </div>
      <CashChart
        months={r.months.map((m) => m.month)}
        currency={currency}
        label={`Closing cash of ${r.tests.length} stress tests`}
        lines={r.tests.map((t, i) => ({ label: t.name ?? `Test ${i + 1}`, values: r.months.map((m) => m.cash[i] ?? null) }))}
      />
      <div className="compare-cols">
        {r.tests.map((t) => (
          <dl key={t.id} className="compare-col">
            <dt className="compare-name">{nameOf(t)}</dt>
            <dd>
              Ending cash <strong>{formatAmount(t.endingCash.stressed, t.currency)}</strong>
              <span className="faint"> (baseline {formatAmount(t.endingCash.baseline, t.currency)})</span>
            </dd>
            <dd>
              Lowest cash <strong>{formatAmount(t.lowestCash.stressed, t.currency)}</strong>
            </dd>
            <dd>Runs out {t.runsOutIn.stressed ?? 'not within the horizon'}</dd>
            <dd className="faint">
              {t.drivers} driver{t.drivers === 1 ? '' : 's'} · {formatNumber(t.horizonMonths)} months · {t.currency}
            </dd>
          </dl>
        ))}
      </div>
    </section>
  );
}
