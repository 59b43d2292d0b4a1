/**
 * The runway screen's charts (chart.js through react-chartjs-2): forecasts with their 80 % and 95 % bands, cash
 * paths (baseline against stressed, or several saved tests), in the theme's colours. Each canvas has a text
 * alternative (aria-label with the figures that matter); the tables beside them carry the numbers.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  type ChartData,
  Chart as ChartJS,
  type ChartOptions,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { Chart } from 'react-chartjs-2';
import { useTranslation } from 'react-i18next';
import type { ForecastResult } from '../../../src-shared/contract/metrics';
import { formatAmount, formatCompactAmount, formatMonth } from '../../lib/format';
import { useTheme } from '../../stores/theme';
import { isHidden, shownInTooltip, tooltipText } from './tooltip-text';

ChartJS.register(
  CategoryScale,
  LinearScale,
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  Filler,
  Tooltip,
  Legend,
);

export const SERIES = ['#2f6fd6', '#d9480f', '#2b8a3e', '#ae3ec9', '#e67700', '#0c8599'];

function palette(theme: 'light' | 'dark') {
  return theme === 'dark'
    ? {
        text: '#b3bdca',
        grid: '#2a3444',
        main: '#6ea4f5',
        band80: 'rgba(110,164,245,0.30)',
        band95: 'rgba(110,164,245,0.14)',
        history: '#5b6b82',
        bad: '#f28b82',
      }
    : {
        text: '#555e6b',
        grid: '#e3e6eb',
        main: '#1f5fbf',
        band80: 'rgba(31,95,191,0.22)',
        band95: 'rgba(31,95,191,0.10)',
        history: '#9aa6b8',
        bad: '#c92a2a',
      };
}

function baseOptions(theme: 'light' | 'dark', currency: string): ChartOptions<'bar' | 'line'> {
  const c = palette(theme);
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    interaction: { mode: 'index', intersect: false },
    plugins: {
      legend: { labels: { color: c.text, boxWidth: 12, filter: (item) => !isHidden(item.text) } },
      tooltip: {
        filter: (item) => shownInTooltip(item.dataset.label, item.raw),
        callbacks: {
          label: (ctx) => {
            const before = ctx.chart.data.datasets[ctx.datasetIndex - 1];
            return tooltipText(
              String(ctx.dataset.label),
              Number(ctx.parsed.y),
              before ? { label: before.label, value: before.data[ctx.dataIndex] } : undefined,
              currency,
            );
          },
        },
      },
    },
    scales: {
      x: { ticks: { color: c.text, maxRotation: 0, autoSkipPadding: 12 }, grid: { display: false } },
      y: {
        // Short, in the user's language and currency: "150k €", "€1.2M".
        ticks: { color: c.text, callback: (v) => formatCompactAmount(Number(v), currency) },
        grid: { color: c.grid },
      },
    },
  };
}

/** History (bars) and the forecast (line) with its 95 % and 80 % bands, month by month. */
export function ForecastChart({ result, label }: { result: ForecastResult; label: string }) {
  const { t } = useTranslation('runway');
  const theme = useTheme((s) => s.theme);
  const c = palette(theme);
  const labels = [...result.history.map((h) => h.month), ...result.forecast.map((f) => f.month)].map((m) => formatMonth(m));
  const pad = (n: number) => Array.from({ length: n }, () => null);
  const h = result.history.length;
  const data: ChartData<'bar' | 'line', (number | null)[], string> = {
    labels,
    datasets: [
      {
        type: 'line',
        label: '_upper95',
        data: [...pad(h), ...result.forecast.map((f) => f.upper95)],
        borderWidth: 0,
        pointRadius: 0,
        fill: false,
        backgroundColor: c.band95,
      },
      {
        type: 'line',
        label: t('chart.interval95'),
        data: [...pad(h), ...result.forecast.map((f) => f.lower95)],
        borderWidth: 0,
        pointRadius: 0,
        fill: '-1',
        backgroundColor: c.band95,
      },
      {
        type: 'line',
        label: '_upper80',
        data: [...pad(h), ...result.forecast.map((f) => f.upper80)],
        borderWidth: 0,
        pointRadius: 0,
        fill: false,
        backgroundColor: c.band80,
      },
      {
        type: 'line',
        label: t('chart.interval80'),
        data: [...pad(h), ...result.forecast.map((f) => f.lower80)],
        borderWidth: 0,
        pointRadius: 0,
        fill: '-1',
        backgroundColor: c.band80,
      },
      {
        type: 'line',
        label: t('chart.forecast'),
        data: [...pad(h), ...result.forecast.map((f) => f.value)],
        borderColor: c.main,
        backgroundColor: c.main,
        pointRadius: 2,
        borderWidth: 2,
      },
      {
        type: 'bar',
        label: t('chart.actual'),
        data: [...result.history.map((x) => x.value), ...pad(result.forecast.length)],
        backgroundColor: c.history,
      },
    ],
  };
  const first = result.forecast[0];
  const last = result.forecast[result.forecast.length - 1];
  const summary =
    first && last
      ? t('chart.summary', {
          label,
          from: formatMonth(first.month, 'long'),
          to: formatMonth(last.month, 'long'),
          value: formatAmount(last.value, result.currency),
          lower: formatAmount(last.lower95, result.currency),
          upper: formatAmount(last.upper95, result.currency),
        })
      : label;
  return (
    <div className="chart-box">
      <Chart
        type="bar"
        data={data as ChartData<'bar', (number | null)[], string>}
        options={baseOptions(theme, result.currency) as ChartOptions<'bar'>}
        aria-label={summary}
        role="img"
      />
    </div>
  );
}

export interface CashLine {
  label: string;
  values: (number | null)[];
  /** The unstressed path: drawn in its own style (grey, dashed, thinner), whatever else is on the chart. */
  baseline?: boolean;
}

/** Closing cash per month for one or more paths, with the zero line drawn strongly. */
export function CashChart({
  months,
  lines,
  currency,
  label,
}: {
  months: string[];
  lines: CashLine[];
  currency: string;
  label: string;
}) {
  const theme = useTheme((s) => s.theme);
  const c = palette(theme);
  const data: ChartData<'line', (number | null)[], string> = {
    labels: months.map((m) => formatMonth(m)),
    datasets: lines.map((l, i) => {
      // Stressed paths take the series colours in order; baselines are grey and do not use one up.
      const colour = l.baseline ? c.history : SERIES[lines.slice(0, i).filter((x) => !x.baseline).length % SERIES.length];
      return {
        label: l.label,
        data: l.values,
        borderColor: colour,
        backgroundColor: colour,
        borderDash: l.baseline ? [6, 4] : undefined,
        pointRadius: l.baseline ? 0 : 2,
        borderWidth: l.baseline ? 1.5 : 2,
      };
    }),
  };
  const options = baseOptions(theme, currency) as ChartOptions<'line'>;
  options.scales = {
    ...options.scales,
    y: {
      ...(options.scales?.y as object),
      grid: { color: (ctx) => (ctx.tick?.value === 0 ? c.bad : c.grid), lineWidth: (ctx) => (ctx.tick?.value === 0 ? 2 : 1) },
    },
  };
  return (
    <div className="chart-box">
      <Chart type="line" data={data} options={options} aria-label={label} role="img" />
    </div>
  );
}
