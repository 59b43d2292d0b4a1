/**
 * Runway and stress tests: the runway card (cash, burn, months — infinite said as such — with the window and
 * currency beside the figure), the cash-flow and revenue forecasts with their 80 % and 95 % bands and the method and
 * backtest error named, and the stress-test builder (StressTests.tsx). Window, currency and horizon are shared by all.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import { bankAccountRoutes } from '../../../src-shared/contract/bank-accounts';
import { type ForecastResult, metricRoutes } from '../../../src-shared/contract/metrics';
import { reportRoutes } from '../../../src-shared/contract/reports';
import { DateFilter } from '../../components/DateField';
import { PageHeader } from '../../components/PageHeader';
import { ErrorBanner } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { api } from '../../lib/api';
import { formatAmount, formatDate, formatDateTime, formatMonth, formatNumber } from '../../lib/format';
import { ForecastChart } from './charts';
import { defaultWindow } from './default-window';
import { StressTests } from './StressTests';

export interface Inputs {
  from: string;
  to: string;
  currency: string;
  horizonMonths: number;
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
  const { t } = useTranslation('runway');
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
      <PageHeader namespace="runway" />

      <form className="toolbar inputs-bar" aria-label={t('inputs.label')} onSubmit={(e) => e.preventDefault()}>
        <DateFilter
          label={t('inputs.from')}
          value={inputs.from}
          max={inputs.to || undefined}
          onChange={(from) => setInputs({ ...inputs, from })}
        />
        <DateFilter
          label={t('inputs.to')}
          value={inputs.to}
          min={inputs.from || undefined}
          onChange={(to) => setInputs({ ...inputs, to })}
        />
        <label className="filter wide">
          <span>{t('inputs.currency')}</span>
          <select className="select" value={inputs.currency} onChange={(e) => setInputs({ ...inputs, currency: e.target.value })}>
            <option value="">{t('inputs.baseCurrency')}</option>
            {currencies.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <label className="filter">
          <span>{t('inputs.horizon')}</span>
          <select
            className="select"
            value={inputs.horizonMonths}
            onChange={(e) => setInputs({ ...inputs, horizonMonths: Number(e.target.value) })}
          >
            {[3, 6, 12, 18, 24].map((n) => (
              <option key={n} value={n}>
                {t('months', { count: n })}
              </option>
            ))}
          </select>
        </label>
        {!valid ? <span className="error">{t('inputs.invalid')}</span> : null}
      </form>

      {runway.error ? <ErrorBanner error={runway.error} onRetry={() => void runway.refetch()} /> : null}
      <RunwayCard data={runway.data} />

      <div className="chart-grid">
        <ForecastCard kind="cash_flow" title={t('forecast.cashFlow')} inputs={inputs} enabled={Boolean(valid)} />
        <ForecastCard kind="revenue" title={t('forecast.revenue')} inputs={inputs} enabled={Boolean(valid)} />
      </div>

      <StressTests inputs={inputs} />
    </div>
  );
}

function RunwayCard({ data }: { data: ReturnType<typeof useRead<typeof reportRoutes.runway>>['data'] }) {
  const { t } = useTranslation('runway');
  if (!data) {
    return (
      <section className="card runway-card" aria-label={t('title')} aria-busy="true">
        <div className="runway-main">
          <span className="bone wide-bone" />
          <span className="bone" />
        </div>
      </section>
    );
  }
  const currency = data.currency;
  return (
    <section className="card runway-card" aria-label={t('title')}>
      <div className="runway-main">
        <div className="runway-label">{t('title')}</div>
        <div className="runway-figure" data-testid="runway-months">
          {data.infinite ? (
            <>
              <span aria-hidden="true">∞</span> <span className="runway-unit">{t('card.infinite')}</span>
            </>
          ) : (
            <>
              {formatNumber(data.months, 1)} <span className="runway-unit">{t('card.months', { count: data.months })}</span>
            </>
          )}
        </div>
        <div className="runway-sub">
          {data.infinite ? t('card.infiniteText') : t('card.runsOut', { day: formatDate(data.runsOutOn) })}
        </div>
        <div className="runway-basis">
          {t('card.basis', { from: formatDate(data.from), to: formatDate(data.to), currency, asOf: formatDate(data.asOf) })}
        </div>
      </div>
      <dl className="runway-facts">
        <div>
          <dt>{t('card.cash')}</dt>
          <dd>{formatAmount(data.cash, currency)}</dd>
        </div>
        <div>
          {/* A window that made money has no burn: its net gain is said as such, not as a green negative burn. */}
          <dt>{data.averageMonthlyBurn > 0 ? t('card.burn') : t('card.gain')}</dt>
          <dd className={data.averageMonthlyBurn > 0 ? 'burn' : 'earn'}>
            {formatAmount(Math.abs(data.averageMonthlyBurn), currency)}
          </dd>
        </div>
        <div>
          <dt>{t('card.inflow')}</dt>
          <dd>{formatAmount(data.averageMonthlyInflow, currency)}</dd>
        </div>
        <div>
          <dt>{t('card.outflow')}</dt>
          <dd>{formatAmount(data.averageMonthlyOutflow, currency)}</dd>
        </div>
        <div>
          <dt>{t('card.medianBurn')}</dt>
          <dd>{formatAmount(data.medianBurn, currency)}</dd>
        </div>
      </dl>
      {data.missingRates ? <p className="faint small">{t('card.missingRates', { count: data.missingRates })}</p> : null}
      <details className="how runway-method">
        <summary>{t('card.how')}</summary>
        <p className="faint small" lang="en">
          {data.method.description}
        </p>
      </details>
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
  const { t } = useTranslation('runway');
  const forecast = useForecast(kind, inputs);
  const f = enabled ? forecast.data : undefined;
  const bt = f?.method.backtest;
  return (
    <section className="card chart-card" aria-label={title}>
      <div className="chart-head">
        <h2>{title}</h2>
        {f ? <span className="faint small">{t('forecast.perMonth', { currency: f.currency })}</span> : null}
      </div>
      {forecast.error ? <ErrorBanner error={forecast.error} onRetry={() => void forecast.refetch()} /> : null}
      {f ? (
        <>
          <ForecastChart result={f} label={title} />
          <p className="method">
            {bt
              ? t(bt.relativeMase < 1 ? 'forecast.plainBetter' : 'forecast.plainNotBetter', {
                  in80: formatNumber(bt.coverage80 * 100),
                })
              : t('forecast.plainNoBacktest')}
          </p>
          <details className="how">
            <summary>{t('card.how')}</summary>
            <p className="method">
              <strong>{t('forecast.method')}</strong> <span lang="en">{f.method.name}</span>.{' '}
              {bt ? (
                <>
                  <strong>{t('forecast.backtest')}</strong>{' '}
                  {t('forecast.backtestText', {
                    from: formatMonth(bt.from, 'long'),
                    to: formatMonth(bt.to, 'long'),
                    mase: formatNumber(bt.mase, 2),
                    naive: formatNumber(bt.seasonalNaiveMase, 2),
                    verdict: bt.relativeMase < 1 ? t('forecast.better') : t('forecast.notBetter'),
                    in80: formatNumber(bt.coverage80 * 100),
                    in95: formatNumber(bt.coverage95 * 100),
                  })}
                </>
              ) : f.method.backtestNote ? (
                <span lang="en">{f.method.backtestNote}</span>
              ) : (
                t('forecast.noBacktest')
              )}
            </p>
          </details>
          <p className="faint small">
            {t('forecast.computed', { at: formatDateTime(f.createdAt), count: f.trainingMonths.count })}
          </p>
        </>
      ) : !forecast.error ? (
        <div className="chart-box chart-skeleton" aria-busy="true">
          <span className="faint">{t('forecast.computing')}</span>
        </div>
      ) : null}
    </section>
  );
}
