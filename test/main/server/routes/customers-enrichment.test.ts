/**
 * The hosted customer read's enrichment fields: served on every read (null when unknown), the descriptive ones
 * settable by a client, the provider-managed ones (enrichmentStatus, enrichedAt) never settable.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApi, type TestApi } from '../../../helpers/api';

let api: TestApi;
let token: string;

beforeAll(async () => {
  api = await makeTestApi({ rateLimitPerMinute: 1_000_000 }, 'file');
  token = api.key('enrichment-team');
});

const ENRICHMENT_FIELDS = [
  'description',
  'industry',
  'companyType',
  'employeeCount',
  'foundedYear',
  'estimatedRevenue',
  'fundingStage',
  'totalFunding',
  'headquartersLocation',
  'timezone',
  'linkedinUrl',
  'twitterUrl',
  'instagramUrl',
  'facebookUrl',
  'logoUrl',
  'ceoName',
  'financeContact',
  'financeContactEmail',
  'primaryLanguage',
  'fiscalYearEnd',
  'enrichmentStatus',
  'enrichedAt',
];

describe('customer enrichment fields', () => {
  it('a plain customer reads every enrichment field as null', async () => {
    const res = await api.call('POST', '/v1/customers', { token, body: { name: 'Plain Co' } });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    for (const f of ENRICHMENT_FIELDS) expect(body, f).toHaveProperty(f, null);
  });

  it('sets the descriptive ones on create and patch, and clears with null', async () => {
    const input = {
      name: 'Enriched GmbH',
      description: 'Design studio',
      industry: 'Design',
      companyType: 'GmbH',
      employeeCount: 42,
      foundedYear: 2011,
      estimatedRevenue: '€1M–€10M',
      fundingStage: 'bootstrapped',
      totalFunding: '0',
      headquartersLocation: 'Berlin, Germany',
      timezone: 'Europe/Berlin',
      linkedinUrl: 'https://www.linkedin.com/company/enriched',
      twitterUrl: 'https://x.com/enriched',
      instagramUrl: 'https://instagram.com/enriched',
      facebookUrl: 'https://facebook.com/enriched',
      logoUrl: 'https://enriched.example/logo.png',
      ceoName: 'Ada Example',
      financeContact: 'Bob Ledger',
      financeContactEmail: 'finance@enriched.example',
      primaryLanguage: 'de',
      fiscalYearEnd: '12-31',
    };
    const created = await api.call('POST', '/v1/customers', { token, body: input });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ ...input, employeeCount: '42', enrichmentStatus: null, enrichedAt: null });

    const id = created.json().id;
    const patched = await api.call('PATCH', `/v1/customers/${id}`, { token, body: { industry: null, employeeCount: '11-50' } });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ industry: null, employeeCount: '11-50', ceoName: 'Ada Example' });
    expect((await api.call('GET', `/v1/customers/${id}`, { token })).json().employeeCount).toBe('11-50');
  });

  it.each([
    ['timezone', 'Mars/Olympus'],
    ['linkedinUrl', 'linkedin.com/company/x'],
    ['foundedYear', 1234.5],
    ['foundedYear', 3000],
    ['employeeCount', 'lots'],
    ['financeContactEmail', 'not an email'],
    ['enrichmentStatus', 'completed'],
    ['enrichedAt', '2026-01-01T00:00:00Z'],
  ])('refuses %s = %j with 422 naming the field', async (field, value) => {
    const res = await api.call('POST', '/v1/customers', { token, body: { name: 'Bad', [field]: value } });
    expect(res.statusCode).toBe(422);
    expect(res.json().description).toContain(field);
  });
});
