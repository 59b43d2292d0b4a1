/**
 * The default transaction-category taxonomy every team starts from, modelled on the hosted service's
 * (shared/spec/hosted-service-facts.md, "Categories"): fourteen parent groups, each with leaf categories, identified
 * by slug (slugs are what transactions store and what list filters take; a parent slug expands to its children).
 *
 * Tax: each category names a tax *class* (standard, reduced, zero, exempt, none) rather than a rate, because rates are
 * the team's country's: `defaultCategories(countryCode)` resolves the class to `taxType` + `taxRate` with
 * `VAT_RATES`. A country without a VAT table (the US: sales tax is the seller's, per state) gets `sales_tax` with no
 * rate on taxable categories. `excluded` categories are left out of reports (internal transfers, card settlements:
 * counting them would double-count); `system` ones are managed by the app, not the user.
 */
export type TaxClass = 'standard' | 'reduced' | 'zero' | 'exempt' | 'none';
export type TaxType = 'vat' | 'gst' | 'sales_tax' | 'income_tax' | 'none';

export interface CategorySpec {
  slug: string;
  name: string;
  description: string;
  /** The parent group's slug; null for a group. */
  parent: string | null;
  tax: TaxClass;
  excluded?: boolean;
  system?: boolean;
}

export interface DefaultCategory {
  slug: string;
  name: string;
  description: string;
  parentSlug: string | null;
  color: string;
  taxType: TaxType;
  taxRate: number | null;
  excluded: boolean;
  system: boolean;
}

/** Standard and reduced VAT rates (percent) of the countries the app knows; others get rates left empty. */
export const VAT_RATES: Readonly<Record<string, { standard: number; reduced: number; type?: TaxType }>> = {
  AT: { standard: 20, reduced: 10 },
  BE: { standard: 21, reduced: 6 },
  CH: { standard: 8.1, reduced: 2.6 },
  DE: { standard: 19, reduced: 7 },
  DK: { standard: 25, reduced: 25 },
  ES: { standard: 21, reduced: 10 },
  FR: { standard: 20, reduced: 5.5 },
  GB: { standard: 20, reduced: 5 },
  IE: { standard: 23, reduced: 13.5 },
  IT: { standard: 22, reduced: 10 },
  NL: { standard: 21, reduced: 9 },
  PL: { standard: 23, reduced: 8 },
  SE: { standard: 25, reduced: 12 },
  AU: { standard: 10, reduced: 0, type: 'gst' },
  NZ: { standard: 15, reduced: 0, type: 'gst' },
};

/** One hue per parent group; its children get lighter tints of it, so a chart reads group by group. */
const GROUP_COLORS: Readonly<Record<string, string>> = {
  revenue: '#16a34a',
  'cost-of-goods-sold': '#b45309',
  'sales-marketing': '#db2777',
  operations: '#2563eb',
  'professional-services': '#7c3aed',
  'human-resources': '#0891b2',
  'travel-entertainment': '#ea580c',
  technology: '#4f46e5',
  'banking-finance': '#0f766e',
  'assets-capex': '#57534e',
  'liabilities-debt': '#b91c1c',
  taxes: '#ca8a04',
  'owner-equity': '#9333ea',
  system: '#6b7280',
};

const g = (slug: string, name: string, description: string, extra: Partial<CategorySpec> = {}): CategorySpec => ({
  slug,
  name,
  description,
  parent: null,
  tax: 'none',
  ...extra,
});
const c = (
  parent: string,
  slug: string,
  name: string,
  tax: TaxClass,
  description: string,
  extra: Partial<CategorySpec> = {},
) => ({
  slug,
  name,
  description,
  parent,
  tax,
  ...extra,
});

/** Parents first (a child's parent row must exist before it). */
export const DEFAULT_TAXONOMY: readonly CategorySpec[] = [
  g('revenue', 'Revenue', 'Money earned from customers', { tax: 'standard' }),
  g('cost-of-goods-sold', 'Cost of goods sold', 'Direct costs of what is sold'),
  g('sales-marketing', 'Sales & marketing', 'Winning and keeping customers'),
  g('operations', 'Operations', 'Running the office and the business'),
  g('professional-services', 'Professional services', 'Outside experts: legal, accounting, advisers'),
  g('human-resources', 'Human resources', 'People costs'),
  g('travel-entertainment', 'Travel & entertainment', 'Trips, meals and hospitality'),
  g('technology', 'Technology', 'Software, hardware and hosting'),
  g('banking-finance', 'Banking & finance', 'Bank charges, transfers and financing costs'),
  g('assets-capex', 'Assets & capital expenditure', 'Purchases kept on the balance sheet'),
  g('liabilities-debt', 'Liabilities & debt', 'Loans, leases and their repayment'),
  g('taxes', 'Taxes', 'Payments to and refunds from tax authorities'),
  g('owner-equity', "Owner's equity", 'Money between the business and its owners'),
  g('system', 'System', 'Categories the app manages', { system: true }),

  c('revenue', 'income', 'Income', 'standard', 'General income'),
  c('revenue', 'product-sales', 'Product sales', 'standard', 'Sales of goods and digital products'),
  c('revenue', 'service-revenue', 'Service revenue', 'standard', 'Project and delivery work billed to customers'),
  c('revenue', 'consulting-revenue', 'Consulting revenue', 'standard', 'Advisory and workshop fees'),
  c('revenue', 'subscription-revenue', 'Subscription revenue', 'standard', 'Retainers and recurring plans'),
  c('revenue', 'interest-income', 'Interest income', 'exempt', 'Interest earned on deposits'),
  c('revenue', 'other-income', 'Other income', 'standard', 'Grants, reimbursements and other income'),
  c('revenue', 'customer-refunds', 'Customer refunds', 'standard', 'Money returned to customers (contra-revenue)'),
  c('revenue', 'chargebacks-disputes', 'Chargebacks & disputes', 'standard', 'Reversed card payments (contra-revenue)'),

  c('cost-of-goods-sold', 'inventory', 'Inventory', 'standard', 'Goods bought for resale'),
  c('cost-of-goods-sold', 'subcontractors', 'Subcontractors', 'standard', 'Freelancers and agencies delivering client work'),
  c('cost-of-goods-sold', 'production-costs', 'Production costs', 'standard', 'Printing, shooting and other production'),
  c('cost-of-goods-sold', 'shipping-inbound', 'Inbound shipping', 'standard', 'Freight for goods bought'),

  c('sales-marketing', 'advertising', 'Advertising', 'standard', 'Paid search, social and display ads'),
  c('sales-marketing', 'marketing', 'Marketing', 'standard', 'Campaigns, content and promotion'),
  c('sales-marketing', 'events', 'Events & conferences', 'standard', 'Tickets, booths and sponsorships'),
  c('sales-marketing', 'website', 'Website', 'standard', 'Domains, themes and site tools'),

  c('operations', 'rent', 'Rent', 'exempt', 'Office and workspace rent'),
  c('operations', 'utilities', 'Utilities', 'standard', 'Electricity, heating and water'),
  c('operations', 'internet-and-telephone', 'Internet & telephone', 'standard', 'Connectivity and phone plans'),
  c('operations', 'office-supplies', 'Office supplies', 'standard', 'Stationery, kitchen and small office items'),
  c('operations', 'insurance', 'Insurance', 'exempt', 'Business liability and property insurance'),
  c('operations', 'postage-shipping', 'Postage & shipping', 'standard', 'Letters and parcels sent'),
  c('operations', 'facilities-expenses', 'Facilities', 'standard', 'Cleaning, repairs and maintenance'),

  c('professional-services', 'accounting', 'Accounting & tax advice', 'standard', 'Bookkeeping, payroll service, tax adviser'),
  c('professional-services', 'legal', 'Legal', 'standard', 'Lawyers and notaries'),
  c('professional-services', 'consultants', 'Consultants', 'standard', 'Outside advisers'),

  c('human-resources', 'salary', 'Salaries', 'none', 'Net pay to employees'),
  c('human-resources', 'payroll-taxes', 'Payroll taxes & social security', 'none', 'Wage tax and social contributions'),
  c('human-resources', 'benefits', 'Benefits', 'exempt', 'Pensions, health and perks'),
  c('human-resources', 'training', 'Training', 'reduced', 'Courses, books and learning'),
  c('human-resources', 'recruitment', 'Recruitment', 'standard', 'Job ads and recruiters'),

  c('travel-entertainment', 'travel', 'Travel', 'standard', 'Trains, flights and car hire'),
  c('travel-entertainment', 'accommodation', 'Accommodation', 'reduced', 'Hotels and short stays'),
  c('travel-entertainment', 'meals', 'Meals', 'standard', 'Business meals and catering'),
  c('travel-entertainment', 'transportation', 'Local transport', 'reduced', 'Taxis, rides and public transport'),
  c('travel-entertainment', 'entertainment', 'Entertainment', 'standard', 'Client hospitality and team events'),

  c('technology', 'software', 'Software & SaaS', 'standard', 'Subscriptions and licences'),
  c('technology', 'hardware', 'Hardware', 'standard', 'Computers, screens and devices'),
  c('technology', 'hosting', 'Hosting & cloud', 'standard', 'Servers, cloud and domains'),

  c('banking-finance', 'banking-fees', 'Bank fees', 'exempt', 'Account and transaction charges'),
  c('banking-finance', 'payment-processing-fees', 'Payment processing fees', 'exempt', 'Card acquirer and payment provider fees'),
  c('banking-finance', 'transfer', 'Transfer', 'none', 'Transfers to or from third parties'),
  c('banking-finance', 'credit-card-payment', 'Credit card payment', 'none', 'Settling a credit card balance', {
    excluded: true,
  }),
  c('banking-finance', 'interest-expense', 'Interest expense', 'exempt', 'Interest paid on loans and overdrafts'),
  c('banking-finance', 'foreign-exchange', 'Foreign exchange', 'exempt', 'Currency conversion costs'),

  c('assets-capex', 'capital-expenditure', 'Capital expenditure', 'standard', 'Long-lived equipment'),
  c('assets-capex', 'furniture-fixtures', 'Furniture & fixtures', 'standard', 'Desks, chairs and fit-out'),

  c('liabilities-debt', 'loan-proceeds', 'Loan proceeds', 'none', 'Money received from a loan', { excluded: true }),
  c('liabilities-debt', 'loan-repayment', 'Loan repayment', 'none', 'Principal repaid', { excluded: true }),
  c('liabilities-debt', 'leases', 'Leases', 'standard', 'Leased cars and equipment'),

  c('taxes', 'vat-payments', 'VAT payments', 'none', 'VAT returns and advance payments'),
  c('taxes', 'income-tax', 'Income & corporate tax', 'none', 'Corporate and trade tax prepayments'),
  c('taxes', 'other-taxes', 'Other taxes', 'none', 'Property and other taxes'),

  c('owner-equity', 'owner-draws', 'Owner draws', 'none', 'Money taken out by the owners', { excluded: true }),
  c('owner-equity', 'capital-investment', 'Capital investment', 'none', 'Money put in by the owners', { excluded: true }),

  c('system', 'uncategorized', 'Uncategorized', 'none', 'Not categorised yet', { system: true }),
  c('system', 'other', 'Other', 'none', 'Anything else', { system: true }),
  c('system', 'internal-transfer', 'Internal transfer', 'none', 'Between the team’s own accounts', {
    system: true,
    excluded: true,
  }),
];

/** `#rrggbb` mixed `amount` (0–1) of the way towards white. */
function tint(hex: string, amount: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const ch = (shift: number) => {
    const v = (n >> shift) & 0xff;
    return Math.round(v + (255 - v) * amount)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${ch(16)}${ch(8)}${ch(0)}`;
}

function resolveTax(cls: TaxClass, countryCode: string | null | undefined): { taxType: TaxType; taxRate: number | null } {
  if (cls === 'none') return { taxType: 'none', taxRate: null };
  const rates = countryCode ? VAT_RATES[countryCode.toUpperCase()] : undefined;
  if (!rates) {
    // No VAT table: in the US a buyer's taxable purchases carry sales tax whose rate depends on the seller's state.
    return countryCode?.toUpperCase() === 'US' && (cls === 'standard' || cls === 'reduced')
      ? { taxType: 'sales_tax', taxRate: null }
      : { taxType: 'vat', taxRate: null };
  }
  const type = rates.type ?? 'vat';
  if (cls === 'standard') return { taxType: type, taxRate: rates.standard };
  if (cls === 'reduced') return { taxType: type, taxRate: rates.reduced };
  return { taxType: type, taxRate: 0 };
}

/** The default taxonomy with colours and the tax of the team's country resolved. Parents come first. */
export function defaultCategories(countryCode?: string | null): DefaultCategory[] {
  const childIndex = new Map<string, number>();
  return DEFAULT_TAXONOMY.map((spec) => {
    const group = spec.parent ?? spec.slug;
    const base = GROUP_COLORS[group] ?? '#6b7280';
    let color = base;
    if (spec.parent) {
      const i = childIndex.get(group) ?? 0;
      childIndex.set(group, i + 1);
      color = tint(base, 0.12 + 0.1 * (i % 6));
    }
    return {
      slug: spec.slug,
      name: spec.name,
      description: spec.description,
      parentSlug: spec.parent,
      color,
      ...resolveTax(spec.tax, countryCode),
      excluded: spec.excluded ?? false,
      system: spec.system ?? (spec.parent === 'system' || spec.slug === 'system'),
    };
  });
}
