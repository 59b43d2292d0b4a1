import { z } from 'zod';
import { defineRoute } from './route';
import { Currency } from './tracker';

/**
 * Importing exchange rates from the app (internal app API under /app; docs/decisions/0056, 0115): what
 * `finops rates import` does, for the Team settings screen. The rate table is the server's, shared by its teams, so
 * only a team administrator may import, and only while no other team with people shares the server (a hosted
 * server's operator imports with the CLI). The file is checked whole first: any bad line refuses it (422, one field
 * per line) and nothing is written.
 */

/** The largest rate file taken (the ECB's whole history since 1999 is about 7 MB). */
export const MAX_RATE_FILE_CHARS = 16 * 1024 * 1024;

export const RatesImportBody = z.strictObject({
  fileName: z.string().max(500).optional(),
  content: z
    .string()
    .min(1, 'the file is empty')
    .max(MAX_RATE_FILE_CHARS, 'the file is larger than 16 MiB')
    .describe('the CSV text: "date,currency,rate" (per USD) or "Date,USD,JPY,…" (per the base, ECB style)'),
  base: Currency.optional().describe('the currency a wide file is quoted against (default EUR)'),
});

export const RatesImportResult = z
  .object({
    layout: z.enum(['long', 'wide']),
    base: z.string().describe('what the file quoted against (USD for the long layout)'),
    rows: z.number().int(),
    written: z.number().int().describe('rates new or changed'),
    unchanged: z.number().int(),
    currencies: z.array(z.string()),
    firstDay: z.string().nullable(),
    lastDay: z.string().nullable(),
    skipped: z.array(z.string()).describe('columns of withdrawn currencies left out'),
    baseAmountsUpdated: z.number().int().describe("the team's transactions whose base-currency amount changed"),
    withoutRate: z.number().int().describe("the team's transactions still without a rate"),
  })
  .meta({ id: 'AppRatesImport' });
export type RatesImportResult = z.infer<typeof RatesImportResult>;

export const appRateRoutes = {
  import: defineRoute({
    mount: '/app',
    tag: 'bank-accounts',
    method: 'POST',
    path: '/exchange-rates/import',
    summary: 'Import exchange rates from a CSV file and recompute base-currency amounts',
    description:
      'Internal app API (under /app, not part of the public v1 contract). Team administration: a signed-in owner, or a credential granted apis.all; refused (403) while another team with people shares the server.',
    scopes: ['bank-accounts.write'],
    body: RatesImportBody,
    responses: { 200: RatesImportResult },
  }),
};
