import type { RouteContract } from './route';

/**
 * Where each operation of the contract comes from (docs/decisions/0141-route-origins.md): the spec
 * (shared/spec/v1-api.md, including its overview list), the hosted service (shared/spec/hosted-service-facts.md, its
 * public REST surface), or this project's extension. The OpenAPI document marks each operation with
 * `x-finops-origin` and extensions with `x-finops-extension`; `finops serve --spec-only` serves only the spec's and
 * the hosted service's operations (every extension answers 404), so clients and the sync engine's generic path are
 * tested against exactly what the hosted service offers.
 */
export type RouteOrigin = 'spec' | 'hosted' | 'extension';

const SPEC = `
GET /customers
POST /customers
GET /customers/{}
PATCH /customers/{}
DELETE /customers/{}
POST /workflows/{}/execute
POST /workflows/{}/chat
GET /workflows/runs/{}
POST /metrics/stress-test
GET /metrics/stress-test/{}
POST /metrics/forecast/cash-flow
GET /metrics/forecast/cash-flow
POST /metrics/forecast/revenue
GET /metrics/forecast/revenue
GET /reports/runway
GET /invoices
POST /invoices
PATCH /invoices/{}
POST /invoices/{}/send
GET /transactions
POST /transactions
PATCH /transactions/{}
GET /bank-accounts
GET /balances
GET /cash-flow
GET /payments
GET /invoice-payments
POST /invoices/{}/payment-intent
POST /workflows/{}/runs
GET /oauth/authorize
POST /oauth/authorize
POST /oauth/token
`;

const HOSTED = `
GET /transactions/{}
DELETE /transactions/{}
POST /transactions/bulk
PATCH /transactions/bulk
DELETE /transactions/bulk
POST /transactions/{}/attachments/{}/presigned-url
GET /bank-accounts/{}
POST /bank-accounts
PATCH /bank-accounts/{}
DELETE /bank-accounts/{}
GET /notifications
PATCH /notifications/{}/status
POST /notifications/update-all-status
GET /teams
GET /teams/{}
PATCH /teams/{}
GET /teams/{}/members
GET /users/me
PATCH /users/me
GET /tags
GET /tags/{}
POST /tags
PATCH /tags/{}
DELETE /tags/{}
GET /documents
GET /documents/{}
POST /documents/{}/presigned-url
DELETE /documents/{}
GET /inbox
GET /inbox/{}
PATCH /inbox/{}
DELETE /inbox/{}
POST /inbox/{}/presigned-url
GET /invoices/{}
PUT /invoices/{}
DELETE /invoices/{}
GET /invoices/summary
GET /invoices/payment-status
GET /invoice-payments/connect-stripe
GET /invoice-payments/connect-stripe/callback
POST /invoice-payments/disconnect-stripe
GET /invoice-payments/stripe-status
POST /invoice-payments/payment-intent
GET /search
GET /reports/revenue
GET /reports/profit
GET /reports/burn-rate
GET /reports/expenses
GET /reports/spending
GET /tracker-projects
GET /tracker-projects/{}
POST /tracker-projects
PATCH /tracker-projects/{}
DELETE /tracker-projects/{}
GET /tracker-entries
POST /tracker-entries
POST /tracker-entries/bulk
PATCH /tracker-entries/{}
DELETE /tracker-entries/{}
POST /tracker-entries/timer/start
POST /tracker-entries/timer/stop
GET /tracker-entries/timer/current
GET /tracker-entries/timer/status
POST /oauth/revoke
POST /oauth/register
`;

/** `GET /customers/:id` and `GET /customers/{id}` both become `GET /customers/{}`. */
export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/:[A-Za-z0-9_]+|\{[^}]*\}/g, '{}').replace(/\/+$/, '')}`;
}

const lines = (text: string) =>
  new Set(
    text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .map((l) => operationKey(l.split(' ')[0]!, l.split(' ')[1]!)),
  );
const SPEC_OPS = lines(SPEC);
const HOSTED_OPS = lines(HOSTED);

export function routeOrigin(route: Pick<RouteContract, 'method' | 'path' | 'mount'>): RouteOrigin {
  if (route.mount === '/app') return 'extension';
  const key = operationKey(route.method, route.path);
  if (SPEC_OPS.has(key)) return 'spec';
  if (HOSTED_OPS.has(key)) return 'hosted';
  return 'extension';
}

/** Every operation the spec and the hosted service name (tests check each is served). */
export function knownOperations(): { origin: Exclude<RouteOrigin, 'extension'>; key: string }[] {
  return [
    ...[...SPEC_OPS].map((key) => ({ origin: 'spec' as const, key })),
    ...[...HOSTED_OPS].map((key) => ({ origin: 'hosted' as const, key })),
  ];
}
