/**
 * What a chart's tooltip says for a month (pure, tested): only the series that have a value that month (no "Actual"
 * for a month still to come), and a band by both its bounds ("80 % interval: €90k – €120k"), its upper bound being
 * the hidden series drawn just before it (named with a leading underscore).
 */
import { formatAmount } from '../../lib/format';

/** Hidden helper series (a band's upper bound) are named with a leading underscore. */
export const isHidden = (label: unknown) => String(label).startsWith('_');

export function shownInTooltip(label: unknown, raw: unknown): boolean {
  return !isHidden(label) && raw !== null && raw !== undefined;
}

export function tooltipText(
  label: string,
  value: number,
  before: { label?: unknown; value: unknown } | undefined,
  currency: string,
): string {
  const upper = before && isHidden(before.label) && typeof before.value === 'number' ? before.value : undefined;
  const said = formatAmount(value, currency);
  return upper === undefined ? `${label}: ${said}` : `${label}: ${said} – ${formatAmount(upper, currency)}`;
}
