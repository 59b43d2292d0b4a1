import type { EInvoiceFormat } from '../../../src-shared/domain/einvoice/model';
import type { Db } from '../db';
import { NotFound } from '../errors';
import { newId, nowIso } from '../ids';

export interface Team {
  id: string;
  name: string;
  baseCurrency: string;
  countryCode: string | null;
  fiscalYearStartMonth: number;
  logoUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The team with its postal address and VAT number (migration 017) and e-invoice details (019), as the API shows it and documents print it. */
export interface TeamDetails extends Team {
  addressLine1: string | null;
  addressLine2: string | null;
  zip: string | null;
  city: string | null;
  state: string | null;
  vatNumber: string | null;
  /** BT-32 and BT-30, what identifies a seller without a VAT id (migration 028). */
  taxNumber: string | null;
  legalRegistrationId: string | null;
  /** E-invoice seller data (migration 019). */
  peppolId: string | null;
  email: string | null;
  phone: string | null;
  eInvoiceFormat: EInvoiceFormat | null;
}

const SELECT = `SELECT id, name, base_currency AS baseCurrency, country_code AS countryCode,
  fiscal_year_start_month AS fiscalYearStartMonth, logo_url AS logoUrl, created_at AS createdAt, updated_at AS updatedAt
  FROM teams`;

export function findTeamById(db: Db, id: string): Team | undefined {
  return db.prepare(`${SELECT} WHERE id = ?`).get(id) as Team | undefined;
}

export function getTeam(db: Db, id: string): Team {
  const team = findTeamById(db, id);
  if (!team) throw new NotFound('team', id);
  return team;
}

export function getTeamDetails(db: Db, id: string): TeamDetails {
  const team = db
    .prepare(
      `SELECT id, name, base_currency AS baseCurrency, country_code AS countryCode,
         fiscal_year_start_month AS fiscalYearStartMonth, logo_url AS logoUrl, address_line1 AS addressLine1,
         address_line2 AS addressLine2, zip, city, state, vat_number AS vatNumber, tax_number AS taxNumber,
         legal_registration_id AS legalRegistrationId, peppol_id AS peppolId, email, phone,
         e_invoice_format AS eInvoiceFormat, created_at AS createdAt,
         updated_at AS updatedAt
       FROM teams WHERE id = ?`,
    )
    .get(id) as TeamDetails | undefined;
  if (!team) throw new NotFound('team', id);
  return team;
}

export function findTeamByName(db: Db, name: string): Team | undefined {
  return db.prepare(`${SELECT} WHERE name = ?`).get(name) as Team | undefined;
}

export function createTeam(db: Db, input: { name: string; baseCurrency?: string; countryCode?: string | null }): Team {
  const now = nowIso();
  const id = newId();
  db.prepare('INSERT INTO teams (id, name, base_currency, country_code, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(
    id,
    input.name,
    input.baseCurrency ?? 'EUR',
    input.countryCode ?? null,
    now,
    now,
  );
  return getTeam(db, id);
}

/** The CLI names teams by name (or id); a missing one is created, as `finops token create` promises. */
export function ensureTeam(db: Db, nameOrId: string, defaults: { baseCurrency?: string; countryCode?: string } = {}): Team {
  return db
    .transaction(() => {
      return findTeamById(db, nameOrId) ?? findTeamByName(db, nameOrId) ?? createTeam(db, { name: nameOrId, ...defaults });
    })
    .immediate();
}

/** The data dir's first team (the oldest), or a new one named `name` when it has none: one IMMEDIATE transaction. */
export function firstTeamOrCreate(db: Db, name: string): Team {
  return db
    .transaction(() => {
      const first = db.prepare(`${SELECT} ORDER BY created_at, id LIMIT 1`).get() as Team | undefined;
      return first ?? createTeam(db, { name });
    })
    .immediate();
}

/** Whether the data dir holds exactly one team (server-wide secrets from the environment serve only such a one). */
export function isSingleTeam(db: Db): boolean {
  return (db.prepare('SELECT count(*) FROM (SELECT 1 FROM teams LIMIT 2)').pluck().get() as number) === 1;
}

export function listTeams(db: Db): Team[] {
  return db.prepare(`${SELECT} ORDER BY name`).all() as Team[];
}
