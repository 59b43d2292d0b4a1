import { z } from 'zod';
import { CountryCode } from './customers';
import { defineRoute } from './route';

/**
 * Institutions, bank-data providers and the bank-connection flows (docs/decisions/0055-institutions-and-connections.md).
 *
 * The spec's five provider codes are left open; ours are the five bank-data providers a finance desk for small
 * companies meets: `plaid` and `teller` (aggregators: link token → token exchange; teller's enrollment id is the
 * account's `enrollment_id`), `gocardless` (open banking: end-user agreement → requisition link → exchange; its
 * requisition reference is the account's `resource_id`), `enablebanking` (session-based: a signed link → session
 * result) and `pluggy` (the Brazilian aggregator).
 *
 * This server runs offline: it holds no credentials of those providers and never talks to them. The institution
 * search runs locally over a bundled list; provider health says so truthfully (every provider unhealthy, with the
 * reason; search healthy); the connection flows answer 409 naming the remote instance that runs them.
 */
export const PROVIDERS = ['plaid', 'gocardless', 'enablebanking', 'teller', 'pluggy'] as const;
export type Provider = (typeof PROVIDERS)[number];

export const Institution = z
  .object({
    id: z.string(),
    name: z.string(),
    logo: z.string().nullable(),
    available_history: z.number().nullable().describe('days of transaction history the provider can fetch'),
    maximum_consent_validity: z.number().nullable().describe('days a consent stays valid'),
    type: z.enum(['personal', 'business']).nullable(),
    popularity: z.number().describe('higher first'),
    country: z.string().describe('ISO 3166-1 alpha-2'),
    provider: z
      .string()
      .describe(`one of ${PROVIDERS.join(', ')}; \`manual\` on the institution of an account kept by hand (extension)`),
  })
  .meta({ id: 'Institution' });
export type Institution = z.infer<typeof Institution>;

export const InstitutionListQuery = z.object({
  country: CountryCode.optional().describe('ISO 3166-1 alpha-2; without it every country'),
  q: z.string().trim().max(100).optional().describe('part of the name, ignoring case and accents'),
  provider: z.enum(PROVIDERS).optional().describe('extension: one provider only'),
});

const Health = z.object({
  healthy: z.boolean(),
  reason: z.string().optional().describe('extension: why it is not healthy'),
});

export const ProviderHealth = z
  .object({
    plaid: Health,
    gocardless: Health,
    enablebanking: Health,
    teller: Health,
    pluggy: Health,
    search: Health,
  })
  .meta({ id: 'ProviderHealth' });
export type ProviderHealth = z.infer<typeof ProviderHealth>;

// ---------------------------------------------------------------------------------------------------------------
// The bank-connection flows: the spec's request and response payloads. They run on a remote instance.

const Text = z.string().trim().min(1, 'must not be empty').max(500);

export const AggregatorLinkTokenBody = z.strictObject({
  userId: Text,
  language: z.string().trim().max(35).optional(),
  accessToken: z.string().max(500).optional().describe('an existing access token, to reconnect'),
});
export const AggregatorExchangeBody = z.strictObject({ token: Text });
export const OpenBankingLinkBody = z.strictObject({
  institutionId: Text,
  redirect: z.url({ message: 'must be an absolute URL' }).max(2048),
  agreement: z.string().max(500).nullable().optional(),
  reference: z.string().max(500).optional(),
});
export const OpenBankingAgreementBody = z.strictObject({
  institutionId: Text,
  transactionTotalDays: z.number().int().min(1).max(730),
});
export const SessionLinkBody = z.strictObject({
  institutionId: Text,
  country: CountryCode,
  teamId: Text,
  validUntil: Text,
  state: Text,
  type: z.enum(['personal', 'business']),
});
export const SessionResultBody = z.strictObject({ code: Text.describe('the code the provider appended to the redirect') });
export const ConnectionRefBody = z.object({
  id: Text.describe('the connection (requisition, item, enrollment or session) id at the provider'),
  provider: z.enum(PROVIDERS),
});

const wrap = <T extends z.ZodType>(data: T) => z.object({ data });

export const LinkTokenResponse = wrap(z.object({ link_token: z.string(), expiration: z.string() }));
export const TokenExchangeResponse = wrap(z.object({ access_token: z.string(), item_id: z.string() }));
export const LinkResponse = wrap(z.object({ link: z.string() }));
export const AgreementResponse = wrap(
  z.object({
    id: z.string(),
    created: z.string(),
    access_valid_for_days: z.number(),
    max_historical_days: z.number(),
    institution_id: z.string(),
    accepted: z.boolean(),
  }),
);
export const OpenBankingExchangeResponse = wrap(
  z.object({
    id: z.string(),
    access_valid_for_days: z.number(),
    max_historical_days: z.number(),
    institution_id: z.string(),
  }),
);
export const SessionLinkResponse = wrap(z.object({ url: z.string() }));
export const SessionResultResponse = wrap(
  z.object({
    session_id: z.string(),
    expires_at: z.string(),
    accounts: z.array(z.object({ account_reference: z.string(), account_id: z.string() })),
  }),
);
export const ConnectionStatusResponse = wrap(z.object({ status: z.string() }));
export const DeleteConnectionResponse = wrap(z.object({ success: z.boolean() }));

/** Said by every flow route here: relayed to the team's sync remote, else 409 with the reason. */
export const REMOTE_ONLY =
  'Runs on a remote instance: this local server holds no bank-data provider credentials, so the call is sent on to ' +
  "the team's sync remote and answered as it answered (header X-Finops-Relayed-To); without a remote, or when it " +
  'cannot be reached, the answer is 409 (error Conflict) with the reason. The sync engine brings the accounts of a ' +
  'connection and their transactions here.';

const flow = <const B extends z.ZodType, const R extends z.ZodType>(path: string, summary: string, body: B, response: R) =>
  defineRoute({
    method: 'POST',
    path,
    tag: 'bank-connections',
    summary,
    description: REMOTE_ONLY,
    scopes: ['bank-accounts.write'],
    body,
    responses: { 200: response },
  });

export const institutionRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/institutions',
    tag: 'bank-accounts',
    summary: 'Search institutions (banks) by country and name, most popular first',
    description: 'Answered from the list bundled with this server (no provider is asked).',
    scopes: ['bank-accounts.read'],
    query: InstitutionListQuery,
    responses: { 200: z.object({ data: z.array(Institution) }) },
  }),
  health: defineRoute({
    method: 'GET',
    path: '/institutions/health',
    tag: 'bank-accounts',
    summary: 'Provider health: one {healthy} entry per provider and one for the institution search',
    description:
      'Offline the truth: the providers are not reachable from this local server (unhealthy, with the reason); the ' +
      'local institution search is healthy while its list is loaded.',
    scopes: ['bank-accounts.read'],
    responses: { 200: z.object({ data: ProviderHealth }) },
  }),
};

export const connectionRoutes = {
  aggregatorLinkToken: flow(
    '/banking/aggregator/link-token',
    'Aggregator link token (plaid, teller, pluggy)',
    AggregatorLinkTokenBody,
    LinkTokenResponse,
  ),
  aggregatorExchange: flow(
    '/banking/aggregator/exchange',
    'Aggregator token exchange: a public token for an access token',
    AggregatorExchangeBody,
    TokenExchangeResponse,
  ),
  openBankingAgreement: flow(
    '/banking/open-banking/agreement',
    'Open-banking end-user agreement (gocardless)',
    OpenBankingAgreementBody,
    AgreementResponse,
  ),
  openBankingLink: flow(
    '/banking/open-banking/link',
    'Open-banking authorization link (gocardless requisition)',
    OpenBankingLinkBody,
    LinkResponse,
  ),
  openBankingExchange: flow(
    '/banking/open-banking/exchange',
    'Open-banking exchange',
    OpenBankingAgreementBody,
    OpenBankingExchangeResponse,
  ),
  sessionLink: flow(
    '/banking/session/link',
    'Session-based authorization link (enablebanking); state comes back on the redirect',
    SessionLinkBody,
    SessionLinkResponse,
  ),
  sessionResult: flow(
    '/banking/session/result',
    'Session result: the session and its accounts, from the code of the redirect',
    SessionResultBody,
    SessionResultResponse,
  ),
  connectionStatus: defineRoute({
    method: 'GET',
    path: '/banking/connections/status',
    tag: 'bank-connections',
    summary: 'Status of a bank connection at its provider',
    description: REMOTE_ONLY,
    scopes: ['bank-accounts.read'],
    query: ConnectionRefBody,
    responses: { 200: ConnectionStatusResponse },
  }),
  deleteConnection: flow(
    '/banking/connections/delete',
    'Delete a bank connection at its provider',
    ConnectionRefBody,
    DeleteConnectionResponse,
  ),
};
