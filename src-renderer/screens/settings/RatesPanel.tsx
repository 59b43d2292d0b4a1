/**
 * Team settings → Exchange rates: the rates the team's base-currency figures use today (each currency against the
 * base currency, with the day it was published), and importing a rate file — the ECB's history or
 * `date,currency,rate` per USD — which recomputes the base amounts. A bad file is refused whole, each line said.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import { appRateRoutes, type RatesImportResult } from '../../../src-shared/contract/app-rates';
import { exchangeRateRoutes } from '../../../src-shared/contract/exchange-rates';
import { teamRoutes } from '../../../src-shared/contract/teams';
import { FileDrop } from '../../components/FileDrop';
import { DataTable } from '../../components/table/DataTable';
import { EmptyState } from '../../components/table/EmptyState';
import { ErrorBanner, Field, RefusedLines } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { formatDate, formatNumber } from '../../lib/format';
import { useMayManageTeam } from './TeamPanel';

interface RateRow {
  currency: string;
  /** Units of the base currency for one unit of this currency. */
  inBase: number;
  day: string;
}

/** Each currency of the day's table against the base currency (the API quotes per USD). */
export function ratesAgainst(
  base: string,
  table: { usd: Record<string, number>; rateDates: Record<string, string>; date: string },
): RateRow[] {
  const perUsdBase = table.usd[base];
  if (!perUsdBase) return [];
  return Object.entries(table.usd)
    .filter(([code]) => code !== base)
    .map(([currency, perUsd]) => ({
      currency,
      inBase: perUsdBase / perUsd,
      day: table.rateDates[currency] ?? table.rateDates[base] ?? table.date,
    }))
    .sort((a, b) => a.currency.localeCompare(b.currency));
}

export function RatesPanel() {
  const { t } = useTranslation('team');
  const teams = useRead(teamRoutes.list);
  const base = teams.data?.data[0]?.baseCurrency;
  const rates = useRead(exchangeRateRoutes.rates);
  const rows = base && rates.data ? ratesAgainst(base, rates.data.data) : [];
  const baseRate = base && rates.data ? rates.data.data.usd[base] : undefined;
  return (
    <>
      <section className="panel" aria-labelledby="rates-title">
        <h2 id="rates-title">{t('rates.title')}</h2>
        <p className="muted">{t('rates.intro', { base: base ?? '' })}</p>
        {rates.error ? <ErrorBanner error={rates.error} onRetry={() => void rates.refetch()} /> : null}
        {rates.data && base && baseRate === undefined ? <p className="banner info">{t('rates.noBase', { base })}</p> : null}
        <DataTable
          label={t('rates.title')}
          className="compact"
          wrap="rates-table"
          rows={rows}
          loading={rates.isPending || teams.isPending}
          skeletonRows={3}
          rowKey={(r) => r.currency}
          empty={<EmptyState title={t('rates.none')}>{t('rates.noneText')}</EmptyState>}
          columns={[
            { id: 'currency', header: t('rates.columns.currency'), cell: (r) => <span className="cell-name">{r.currency}</span> },
            {
              id: 'rate',
              header: t('rates.columns.rate', { base }),
              numeric: true,
              className: 'num',
              cell: (r) => formatNumber(r.inBase, r.inBase >= 0.01 ? 4 : 6),
            },
            { id: 'day', header: t('rates.columns.day'), className: 'date', cell: (r) => formatDate(r.day) },
          ]}
        />
        {rates.data?.data.missing.length ? (
          <p className="faint">{t('rates.missing', { currencies: rates.data.data.missing.join(', ') })}</p>
        ) : null}
      </section>
      <RatesImport />
    </>
  );
}

function RatesImport() {
  const { t } = useTranslation('team');
  const importRates = useWrite(appRateRoutes.import);
  const mayManage = useMayManageTeam();
  const [quotedIn, setQuotedIn] = useState('EUR');
  const [result, setResult] = useState<RatesImportResult | null>(null);
  const [failure, setFailure] = useState<unknown>(null);

  async function upload(file: File) {
    setResult(null);
    setFailure(null);
    try {
      const content = await file.text();
      // The base applies to a file of one column per currency, EUR unless said otherwise; a date,currency,rate file
      // is per USD and takes none, so the default is not sent.
      const base = quotedIn.trim() && quotedIn.trim() !== 'EUR' ? { base: quotedIn.trim() } : {};
      setResult(await importRates.mutateAsync({ body: { fileName: file.name, content, ...base } }));
    } catch (err) {
      setFailure(err);
    }
  }

  const lines = failure instanceof ApiClientError && failure.status === 422 ? (failure.fields ?? []) : [];
  return (
    <section className="panel" aria-labelledby="rates-import-title">
      <h2 id="rates-import-title">{t('rates.importTitle')}</h2>
      <p className="muted">{t('rates.importIntro')}</p>
      {mayManage ? (
        <>
          <div className="grid-2">
            <Field label={t('rates.quotedIn')} hint={t('rates.quotedInHint')}>
              {({ id, describedBy }) => (
                <input
                  id={id}
                  className="input"
                  value={quotedIn}
                  maxLength={3}
                  onChange={(e) => setQuotedIn(e.target.value.toUpperCase())}
                  aria-describedby={describedBy}
                  autoComplete="off"
                />
              )}
            </Field>
          </div>
          <FileDrop
            inputLabel={t('rates.fileLabel')}
            accept=".csv,text/csv,text/plain"
            disabled={importRates.isPending}
            onFile={upload}
          >
            {importRates.isPending ? t('rates.importing') : t('rates.drop')}
          </FileDrop>
        </>
      ) : (
        <p className="faint">{t('team.ownersOnly')}</p>
      )}
      {failure && lines.length === 0 ? <ErrorBanner error={failure} /> : null}
      {lines.length ? (
        <RefusedLines title={t('rates.refused', { count: lines.length })} lines={lines.map((f) => f.message)} />
      ) : null}
      {result ? (
        <p className="banner ok" role="status">
          {result.rows === 0
            ? t('rates.importedNothing')
            : t('rates.imported', {
                count: result.rows,
                currencies: result.currencies.length,
                from: formatDate(result.firstDay),
                to: formatDate(result.lastDay),
                written: formatNumber(result.written),
              })}{' '}
          {t('rates.recomputed', { count: result.baseAmountsUpdated })}{' '}
          {result.withoutRate ? t('rates.stillMissing', { count: result.withoutRate }) : t('rates.noneMissing')}
        </p>
      ) : null}
    </section>
  );
}
