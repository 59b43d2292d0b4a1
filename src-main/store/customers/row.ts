import type { CustomerPatch } from '../../../src-shared/contract/customers';
import type { Db } from '../db';

/** A customer as stored, and the API field each plain column holds. */

/** API field → column, for every plain field a client may write (country is derived separately). */
export const FIELDS = [
  ['name', 'name'],
  ['email', 'email'],
  ['billingEmail', 'billing_email'],
  ['phone', 'phone'],
  ['website', 'website'],
  ['contact', 'contact'],
  ['countryCode', 'country_code'],
  ['addressLine1', 'address_line1'],
  ['addressLine2', 'address_line2'],
  ['city', 'city'],
  ['state', 'state'],
  ['zip', 'zip'],
  ['vatNumber', 'vat_number'],
  ['peppolId', 'peppol_id'],
  ['eInvoiceFormat', 'e_invoice_format'],
  ['buyerReference', 'buyer_reference'],
  ['invoiceLocale', 'invoice_locale'],
  ['note', 'note'],
  ['description', 'description'],
  ['industry', 'industry'],
  ['companyType', 'company_type'],
  ['employeeCount', 'employee_count'],
  ['foundedYear', 'founded_year'],
  ['estimatedRevenue', 'estimated_revenue'],
  ['fundingStage', 'funding_stage'],
  ['totalFunding', 'total_funding'],
  ['headquartersLocation', 'headquarters_location'],
  ['timezone', 'timezone'],
  ['linkedinUrl', 'linkedin_url'],
  ['twitterUrl', 'twitter_url'],
  ['instagramUrl', 'instagram_url'],
  ['facebookUrl', 'facebook_url'],
  ['logoUrl', 'logo_url'],
  ['ceoName', 'ceo_name'],
  ['financeContact', 'finance_contact'],
  ['financeContactEmail', 'finance_contact_email'],
  ['primaryLanguage', 'primary_language'],
  ['fiscalYearEnd', 'fiscal_year_end'],
] as const satisfies readonly (readonly [keyof CustomerPatch, string])[];

export type Column = (typeof FIELDS)[number][1] | 'country';

export type CustomerRow = Record<Column | 'enrichment_status' | 'enriched_at', string | null> & {
  id: string;
  team_id: string;
  name: string;
  founded_year: number | null;
  created_at: string;
  updated_at: string;
  seq: number;
};

export function getRow(db: Db, teamId: string, id: string): CustomerRow | undefined {
  return db.prepare('SELECT * FROM customers WHERE team_id = ? AND id = ?').get(teamId, id) as CustomerRow | undefined;
}
