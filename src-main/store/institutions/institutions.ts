import bundled from '../../../resources/institutions.json';
import { type Institution, PROVIDERS, type Provider, type ProviderHealth } from '../../../src-shared/contract/institutions';

/**
 * Institutions (banks) and the health of the bank-data providers, answered locally
 * (docs/decisions/0055-institutions-and-connections.md). The list ships with the app (resources/institutions.json:
 * real banks per provider and country; ids are this app's own, `<provider>_<name>_<country>`, since the providers'
 * ids are resolved by the remote instance that runs the connection). It is market data, not a team's record:
 * nothing here touches the database.
 */

const INSTITUTIONS: readonly Institution[] = bundled as Institution[];

/** Lower case without accents, so "societe" finds "Société Générale". */
function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

const FOLDED = INSTITUTIONS.map((i) => ({ institution: i, name: fold(i.name) }));

export interface InstitutionQuery {
  country?: string;
  q?: string;
  provider?: Provider;
}

/** Institutions matching every given condition, most popular first, then by name. */
export function searchInstitutions(query: InstitutionQuery = {}): Institution[] {
  const words = query.q ? fold(query.q).split(/\s+/).filter(Boolean) : [];
  return FOLDED.filter(
    ({ institution: i, name }) =>
      (!query.country || i.country === query.country.toUpperCase()) &&
      (!query.provider || i.provider === query.provider) &&
      words.every((w) => name.includes(w)),
  )
    .map((f) => f.institution)
    .sort((a, b) => b.popularity - a.popularity || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

export function findInstitution(id: string): Institution | undefined {
  return INSTITUTIONS.find((i) => i.id === id);
}

export function institutionCount(): number {
  return INSTITUTIONS.length;
}

/** The institution shown on an account kept by hand. */
export function manualInstitution(country: string | null): Institution {
  return {
    id: 'manual',
    name: 'Manual account',
    logo: null,
    available_history: null,
    maximum_consent_validity: null,
    type: null,
    popularity: 0,
    country: country ?? '',
    provider: 'manual',
  };
}

/**
 * The institution of a connected account: the bundled entry when its id is one, else what the account row
 * remembers (an institution the list does not know, as a sync brought it).
 */
export function accountInstitution(row: {
  institution_id: string | null;
  institution_name: string | null;
  institution_logo: string | null;
  manual: number;
  teamCountry: string | null;
}): Institution {
  if (row.manual === 1 && !row.institution_id) return manualInstitution(row.teamCountry);
  const known = row.institution_id ? findInstitution(row.institution_id) : undefined;
  if (known) return { ...known, logo: row.institution_logo ?? known.logo };
  const provider = PROVIDERS.find((p) => row.institution_id?.startsWith(`${p}_`)) ?? 'unknown';
  return {
    id: row.institution_id ?? 'unknown',
    name: row.institution_name ?? 'Unknown institution',
    logo: row.institution_logo,
    available_history: null,
    maximum_consent_validity: null,
    type: null,
    popularity: 0,
    country: row.teamCountry ?? '',
    provider,
  };
}

/**
 * Provider health as this server can truthfully tell it: the providers are never called from here (no credentials,
 * and the connection flows run on a remote instance), so each is unhealthy with that reason; the search is healthy
 * while the bundled list is loaded and answers.
 */
export function providerHealth(): ProviderHealth {
  const reason =
    'not reachable from this local server: it holds no credentials of bank-data providers and makes no calls to them; ' +
    'bank connections run on a remote instance';
  const searchWorks = INSTITUTIONS.length > 0 && searchInstitutions({ q: INSTITUTIONS[0]!.name }).length > 0;
  const entries = Object.fromEntries(PROVIDERS.map((p) => [p, { healthy: false, reason }])) as Record<
    Provider,
    { healthy: boolean; reason?: string }
  >;
  return {
    ...entries,
    search: searchWorks ? { healthy: true } : { healthy: false, reason: 'the bundled institution list is empty' },
  };
}
