/**
 * The team form's values and what they become on the wire (pure, table-tested): only the fields that changed are
 * sent, trimmed, an emptied field as null (cleared); the checks the browser can make come first (a name, a VAT
 * number in its country's format), the server validates everything again.
 */
import type { Team, TeamPatch } from '../../../src-shared/contract/teams';
import { t } from '../../i18n';
import { vatNumberError } from '../customers/form-model';

export const TEAM_FIELDS = [
  'name',
  'baseCurrency',
  'countryCode',
  'fiscalYearStartMonth',
  'addressLine1',
  'addressLine2',
  'zip',
  'city',
  'state',
  'vatNumber',
] as const;
export type TeamField = (typeof TEAM_FIELDS)[number];
export type TeamValues = Record<TeamField, string>;

export function teamValues(team: Team): TeamValues {
  return Object.fromEntries(TEAM_FIELDS.map((f) => [f, team[f] === null ? '' : String(team[f])])) as TeamValues;
}

export function teamPatch(team: Team, values: TeamValues): TeamPatch {
  const before = teamValues(team);
  const patch: Record<string, unknown> = {};
  for (const f of TEAM_FIELDS) {
    const now = values[f].trim();
    if (now === before[f].trim()) continue;
    patch[f] = f === 'fiscalYearStartMonth' ? Number(now) : now === '' ? null : now;
  }
  return patch as TeamPatch;
}

export function teamErrors(values: TeamValues): Partial<Record<TeamField, string>> {
  const errors: Partial<Record<TeamField, string>> = {};
  if (!values.name.trim()) errors.name = t('team:team.nameRequired');
  const vat = vatNumberError(values.vatNumber, values.countryCode || null);
  if (vat) errors.vatNumber = vat;
  return errors;
}
