import type { Team, TeamMember, TeamPatch } from '../../../src-shared/contract/teams';
import { USER_TEAM_PLAN, type User, type UserPatch } from '../../../src-shared/contract/users';
import type { Db } from '../db';
import { Conflict, NotFound } from '../errors';
import { nowIso } from '../ids';
import { recomputeBaseAmounts } from '../ledger/maintenance';
import { actingUserId, getMembership } from '../users/users';
import { findTeamById, getTeamDetails } from './teams';

/**
 * The team and user reads and writes of the v1 API (docs/decisions/0085-teams-and-users.md). Teams and users are
 * not team-owned records (they own them), so they are written here directly, not through the change feed's write
 * path; a change of either shows in the next read.
 */

interface Caller {
  teamId: string;
  userId: string | null;
}

/** The caller's team by id; any other id is NotFound (404), never a hint that the team exists. */
export function teamOfCaller(db: Db, caller: Caller, id: string): Team {
  if (id !== caller.teamId) throw new NotFound('team', id);
  return getTeamDetails(db, id);
}

export class NotOwner extends Error {
  override name = 'NotOwner';
}

export function updateTeam(db: Db, caller: Caller, id: string, patch: TeamPatch): Team {
  return db
    .transaction(() => {
      const team = teamOfCaller(db, caller, id);
      const acting = actingUserId(db, caller);
      if (caller.userId && (!acting || getMembership(db, caller.teamId, acting)?.role !== 'owner')) {
        throw new NotOwner('Only an owner of the team may change it');
      }
      const values: Record<string, string | number | null> = {};
      if (patch.name !== undefined && patch.name !== team.name) {
        const taken = db.prepare('SELECT id FROM teams WHERE name = ? AND id <> ?').get(patch.name, id);
        if (taken) throw new Conflict(`A team named "${patch.name}" already exists`, 'field: name (team names are unique)');
        values.name = patch.name;
      }
      if (patch.logoUrl !== undefined && patch.logoUrl !== team.logoUrl) values.logo_url = patch.logoUrl;
      if (patch.baseCurrency !== undefined && patch.baseCurrency !== team.baseCurrency) values.base_currency = patch.baseCurrency;
      if (patch.countryCode !== undefined && patch.countryCode !== team.countryCode) values.country_code = patch.countryCode;
      if (patch.fiscalYearStartMonth !== undefined && patch.fiscalYearStartMonth !== team.fiscalYearStartMonth) {
        values.fiscal_year_start_month = patch.fiscalYearStartMonth;
      }
      const address = {
        addressLine1: 'address_line1',
        addressLine2: 'address_line2',
        zip: 'zip',
        city: 'city',
        state: 'state',
        vatNumber: 'vat_number',
        taxNumber: 'tax_number',
        legalRegistrationId: 'legal_registration_id',
        peppolId: 'peppol_id',
        email: 'email',
        phone: 'phone',
        eInvoiceFormat: 'e_invoice_format',
      } as const;
      for (const [field, column] of Object.entries(address) as [keyof typeof address, string][]) {
        if (patch[field] !== undefined && patch[field] !== team[field]) values[column] = patch[field];
      }
      const columns = Object.keys(values);
      if (columns.length === 0) return team;
      db.prepare(`UPDATE teams SET ${columns.map((c) => `${c} = @${c}`).join(', ')}, updated_at = @now WHERE id = @id`).run({
        ...values,
        now: nowIso(),
        id,
      });
      // Every base amount is in the team's base currency (decision 0053): a new base currency recomputes them.
      if (values.base_currency !== undefined) recomputeBaseAmounts(db, id);
      return getTeamDetails(db, id);
    })
    .immediate();
}

export function listMembers(db: Db, caller: Caller, id: string): TeamMember[] {
  teamOfCaller(db, caller, id);
  return db
    .prepare(
      `SELECT u.id, m.role, u.full_name AS fullName, u.email, m.created_at AS joinedAt
       FROM team_members m JOIN users u ON u.id = m.user_id
       WHERE m.team_id = ? ORDER BY m.role = 'owner' DESC, m.created_at, u.id`,
    )
    .all(id) as TeamMember[];
}

interface UserRow {
  id: string;
  full_name: string;
  email: string;
  locale: string;
  timezone: string;
  date_format: string;
  time_format: number;
  week_starts_on_monday: number;
  created_at: string;
  updated_at: string;
  role: 'owner' | 'member';
}

function me(db: Db, caller: Caller): UserRow {
  const id = actingUserId(db, caller);
  const row = id
    ? (db
        .prepare('SELECT u.*, m.role FROM users u JOIN team_members m ON m.user_id = u.id AND m.team_id = ? WHERE u.id = ?')
        .get(caller.teamId, id) as UserRow | undefined)
    : undefined;
  if (!row) throw new NotFound('user', 'me');
  return row;
}

function toUser(db: Db, r: UserRow, teamId: string): User {
  const team = findTeamById(db, teamId);
  return {
    id: r.id,
    fullName: r.full_name,
    email: r.email,
    locale: r.locale,
    timezone: r.timezone,
    dateFormat: r.date_format as User['dateFormat'],
    timeFormat: r.time_format === 12 ? 12 : 24,
    weekStartsOnMonday: r.week_starts_on_monday === 1,
    avatarUrl: null,
    teamId,
    team: team ? { id: team.id, name: team.name, logoUrl: team.logoUrl, plan: USER_TEAM_PLAN } : null,
    role: r.role,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function getMe(db: Db, caller: Caller): User {
  return toUser(db, me(db, caller), caller.teamId);
}

export function updateMe(db: Db, caller: Caller, patch: UserPatch): User {
  return db
    .transaction(() => {
      const current = me(db, caller);
      const values: Record<string, string | number> = {};
      const set = (column: keyof UserRow, value: string | number | undefined) => {
        if (value !== undefined && value !== current[column]) values[column] = value;
      };
      set('full_name', patch.fullName);
      set('locale', patch.locale);
      set('timezone', patch.timezone);
      set('date_format', patch.dateFormat);
      set('time_format', patch.timeFormat);
      set('week_starts_on_monday', patch.weekStartsOnMonday === undefined ? undefined : patch.weekStartsOnMonday ? 1 : 0);
      const columns = Object.keys(values);
      if (columns.length > 0) {
        db.prepare(`UPDATE users SET ${columns.map((c) => `${c} = @${c}`).join(', ')}, updated_at = @now WHERE id = @id`).run({
          ...values,
          now: nowIso(),
          id: current.id,
        });
      }
      return getMe(db, caller);
    })
    .immediate();
}
