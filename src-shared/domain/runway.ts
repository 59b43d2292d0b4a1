import type { KeySeries } from './series';

/**
 * Runway: how many months the cash lasts at the burn of a window. Pure; amounts in minor units of one currency.
 *
 * Formulas (docs/decisions/0091-runway-method.md):
 * - cash = Σ balance of the team's enabled `depository` and `other_asset` accounts, each converted to the target
 *   currency at the rate of the as-of day (the balance is today's); an account without a rate is left out and
 *   reported.
 * - windowMonths = the window's length in months, partial months by their share of days (series.ts windowMonths).
 * - averageInflow = Σ inflow ÷ windowMonths; averageOutflow = Σ outflow ÷ windowMonths (the roll-up's report
 *   figures: no internal transfers, no excluded transactions or categories).
 * - averageBurn (net burn) = averageOutflow − averageInflow.
 * - months = cash ÷ averageBurn when averageBurn > 0 (0 when cash ≤ 0); when averageBurn ≤ 0 the cash does not run
 *   out at this rate: `infinite: true`, `months: null` — an explicit state, never a huge number. Cash and burn are
 *   given either way.
 * - runsOutOn = asOf + months × (365.2425 ÷ 12) days, rounded down to a day; null when infinite.
 */

export const DAYS_PER_MONTH = 365.2425 / 12;

export interface RunwayInput {
  cashMinor: number;
  totals: KeySeries;
  windowMonths: number;
  asOf: string;
}

export interface Runway {
  cashMinor: number;
  averageInflowMinor: number;
  averageOutflowMinor: number;
  averageBurnMinor: number;
  infinite: boolean;
  months: number | null;
  runsOutOn: string | null;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** Rounds a derived minor-unit average to a whole minor unit, half away from zero. */
export function roundMinor(x: number): number {
  return Math.sign(x) * Math.round(Math.abs(x));
}

export function runway(input: RunwayInput): Runway {
  const months = input.windowMonths > 0 ? input.windowMonths : 1;
  const averageInflowMinor = roundMinor(sum(input.totals.inflow) / months);
  const averageOutflowMinor = roundMinor(sum(input.totals.outflow) / months);
  // From the exact sums, not the rounded averages, so that a break-even window is exactly zero burn.
  const burn = (sum(input.totals.outflow) - sum(input.totals.inflow)) / months;
  const averageBurnMinor = roundMinor(burn);
  if (burn <= 0) {
    return {
      cashMinor: input.cashMinor,
      averageInflowMinor,
      averageOutflowMinor,
      averageBurnMinor,
      infinite: true,
      months: null,
      runsOutOn: null,
    };
  }
  const left = input.cashMinor <= 0 ? 0 : input.cashMinor / burn;
  const runsOutOn = new Date(Date.parse(`${input.asOf}T00:00:00Z`) + Math.floor(left * DAYS_PER_MONTH) * 86_400_000)
    .toISOString()
    .slice(0, 10);
  return {
    cashMinor: input.cashMinor,
    averageInflowMinor,
    averageOutflowMinor,
    averageBurnMinor,
    infinite: false,
    months: Math.round(left * 100) / 100,
    runsOutOn,
  };
}
