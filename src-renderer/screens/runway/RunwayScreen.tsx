/**
 * Runway and stress tests: the runway card (cash, burn, months — infinite said as such — with the window and
 * currency beside the figure), the cash-flow and revenue forecasts with their 80 % and 95 % bands and the method and
 * backtest error named, and the stress-test builder (StressTests.tsx). Window, currency and horizon are shared by all.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { ApiClientError } from '../../../src-shared/api-client';
import { bankAccountRoutes } from '../../../src-shared/contract/bank-accounts';
import { type ForecastResult, metricRoutes } from '../../../src-shared/contract/metrics';
import { reportRoutes } from '../../../src-shared/contract/reports';
import { ErrorBanner } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { api } from '../../lib/api';
import { formatAmount, formatDate, formatDateTime, formatNumber } from '../../lib/format';
import { ForecastChart } from './charts';
import { StressTests } from './StressTests';

export interface Inputs {
  from: string;
  to: string;
  currency: string;
  horizonMonths: number;
}

const iso = (d: Date) => d.toISOString().slice(0, 10);

/** The last 24 complete months, UTC: enough for the forecasts to learn a season and be backtested. */
export function defaultWindow(today = new Date()): { from: string; to: string } {
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  return { from: iso(new Date(Date.UTC(y - 2, m, 1))), to: iso(new Date(Date.UTC(y, m, 0))) };
}

/** A stored forecast with these inputs, else one computed now (POST stores it for the next visit). */
function useForecast(kind: 'cash_flow' | 'revenue', inputs: Inputs) {
  const body = { from: inputs.from, to: inputs.to, horizonMonths: inputs.horizonMonths, currency: inputs.currency || undefined };
  return useQuery({
    queryKey: ['forecast', 'compute', kind, body],
    queryFn: async ({ signal }): Promise<ForecastResult> => {
      const read = kind === 'cash_flow' ? metricRoutes.readCashFlow : metricRoutes.readRevenue;
      try {
        return await api.call(read, { query: body, signal });
      } catch (err) {
        if (!(err instanceof ApiClientError) || err.status !== 404) throw err;
        const compute = kind === 'cash_flow' ? metricRoutes.forecastCashFlow : metricRoutes.forecastRevenue;
        return api.call(compute, { body, signal, idempotencyKey: crypto.randomUUID() });
      }
    },
    staleTime: 5 * 60_000,
  });
}

export function RunwayScreen() {
  const [inputs, setInputs] = useState<Inputs>(() => ({ ...defaultWindow(), currency: '', horizonMonths: 12 }));
  const accounts = useRead(bankAccountRoutes.list, { query: {} });
  const runway = useRead(reportRoutes.runway, {
    query: { from: inputs.from, to: inputs.to, currency: inputs.currency || undefined },
  });
  const currencies = useMemo(() => {
    const set = new Set<string>((accounts.data?.data ?? []).map((a) => a.currency));
    if (runway.data) set.add(runway.data.currency);
    return [...set].sort();
  }, [accounts.data, runway.data]);
  const valid = inputs.from && inputs.to && inputs.from <= inputs.to;

  return (
    <div className="page runway-page">
      <header className="page-header">
        <div>
          <h1>Runway</h1>
          <p>How long the cash lasts, what the next months may bring, and what happens if things go wrong.</p>
        </div>
      </header>

      <form className="toolbar inputs-bar" aria-label="Window and currency" onSubmit={(e) => e.preventDefault()}>
        <label className="filter">
          <span>Window from</span>
          <input
            className="input"
            type="date"
            value={inputs.from}
            onChange={(e) => setInputs({ ...inputs, from: e.target.value })}
          />
        </label>
        <label className="filter">
          <span>Window to</span>
          <input className="input" type="date" value={inputs.to} onChange={(e) => setInputs({ ...inputs, to: e.target.value })} />
        </label>
        <label className="filter wide">
          <span>Currency</span>
          <select className="select" value={inputs.currency} onChange={(e) => setInputs({ ...inputs, currency: e.target.value })}>
            <option value="">Team base currency</option>
            {currencies.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <label className="filter">
          <span>Forecast months</span>
          <select
            className="select"
            value={inputs.horizonMonths}
            onChange={(e) => setInputs({ ...inputs, horizonMonths: Number(e.target.value) })}
          >
            {[3, 6, 12, 18, 24].map((n) => (
              <option key={n} value={n}>
                {n} months
              </option>
            ))}
          </select>
        </label>
        {!valid ? <span className="error">The window must start before it ends.</span> : null}
      </form>

      {runway.error ? <ErrorBanner error={runway.error} onRetry={() => void runway.refetch()} /> : null}
      <RunwayCard data={runway.data} />

      <div className="chart-grid">
        <ForecastCard kind="cash_flow" title="Cash flow forecast" inputs={inputs} enabled={Boolean(valid)} />
        <ForecastCard kind="revenue" title="Revenue forecast" inputs={inputs} enabled={Boolean(valid)} />
      </div>

      <StressTests inputs={inputs} />
    </div>
  );
}

function RunwayCard({ data }: { data: ReturnType<typeof useRead<typeof reportRoutes.runway>>['data'] }) {
  if (!data) {
    return (
      <section className="card runway-card" aria-label="Runway" aria-busy="true">
        <div className="runway-main">
          <span className="bone wide-bone" />
          <span className="bone" />
        </div>
      </section>
    );
  }
  const currency = data.currency;
  return (
    <section className="card runway-card" aria-label="Runway">
      <div className="runway-main">
        <div className="runway-label">Runway</div>
        <div className="runway-figure" data-testid="runway-months">
          {data.infinite ? (
            <>
              <span aria-hidden="true">∞</span> <span className="runway-unit">Infinite</span>
            </>
          ) : (
            <>
              {formatNumber(data.months, 1)} <span className="runway-unit">months</span>
            </>
          )}
        </div>
        <div className="runway-sub">
          {data.infinite
            ? 'The window made money: at this rate the cash does not run out.'
            : `Cash runs out around ${formatDate(data.runsOutOn)} at this burn.`}
        </div>
        <div className="runway-basis">
          Window {formatDate(data.from)} – {formatDate(data.to)} · in {currency} · cash as of {formatDate(data.asOf)}
        </div>
      </div>
      <dl className="runway-facts">
        <div>
          <dt>Cash</dt>
          <dd>{formatAmount(data.cash, currency)}</dd>
        </div>
        <div>
          <dt>Average monthly burn</dt>
          <dd className={data.averageMonthlyBurn > 0 ? 'burn' : 'earn'}>{formatAmount(data.averageMonthlyBurn, currency)}</dd>
        </div>
        <div>
          <dt>Money in per month</dt>
          <dd>{formatAmount(data.averageMonthlyInflow, currency)}</dd>
        </div>
        <div>
          <dt>Money out per month</dt>
          <dd>{formatAmount(data.averageMonthlyOutflow, currency)}</dd>
        </div>
        <div>
          <dt>Median gross burn (3 months)</dt>
          <dd>{formatAmount(data.medianBurn, currency)}</dd>
        </div>
      </dl>
      <p className="faint small runway-method">
        {data.method.description}
        {data.missingRates ? ` ${data.missingRates} items were left out for want of an exchange rate.` : ''}
      </p>
    </section>
  );
}

function ForecastCard({
  kind,
  title,
  inputs,
  enabled,
}: {
  kind: 'cash_flow' | 'revenue';
  title: string;
  inputs: Inputs;
  enabled: boolean;
}) {
  const forecast = useForecast(kind, inputs);
  const f = enabled ? forecast.data : undefined;
  const bt = f?.method.backtest;
  return (
    <section className="card chart-card" aria-label={title}>
      <div className="chart-head">
        <h2>{title}</h2>
        {f ? <span className="faint small">per month, {f.currency}</span> : null}
      </div>
      {forecast.error ? <ErrorBanner error={forecast.error} onRetry={() => void forecast.refetch()} /> : null}
      {f ? (
        <>
          <ForecastChart result={f} label={title} />
          <p className="method">
            <strong>Method:</strong> {f.method.name}.{' '}
            {bt ? (
              <>
                <strong>Backtest</strong> on {bt.from} – {bt.to}: MASE {formatNumber(bt.mase, 2)} against{' '}
                {formatNumber(bt.seasonalNaiveMase, 2)} for seasonal naive ({bt.relativeMase < 1 ? 'better' : 'not better'});{' '}
                {formatNumber(bt.coverage80 * 100)} % of months inside the 80 % band, {formatNumber(bt.coverage95 * 100)} % inside
                the 95 % band.
              </>
            ) : (
              (f.method.backtestNote ?? 'No backtest: too few complete months in the window.')
            )}
          </p>
          <p className="faint small">
            Computed {formatDateTime(f.createdAt)} from {f.trainingMonths.count} complete months.
          </p>
        </>
      ) : !forecast.error ? (
        <div className="chart-box chart-skeleton" aria-busy="true">
          <span className="faint">Computing the forecast…</span>
        </div>
      ) : null}
    </section>
  );
}
