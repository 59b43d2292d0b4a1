import { z } from 'zod';
import { DATE_FORMATS } from '../domain/import/dates';

/**
 * A CSV mapping: how one bank's CSV export becomes rows (docs/decisions/0061-csv-mapping.md). Inferred from the whole
 * file, shown in the preview, adjustable, saved per account under a name and reused on the account's next file.
 * A column is named by its header text (docs/decisions/0068): a saved mapping finds its columns by name, so a bank
 * that reorders its columns, adds one or puts a line above the header still maps; the index is where the column was
 * last seen, and only files without a header row are mapped by it.
 */
export const CsvColumn = z
  .object({
    index: z.number().int().min(0).max(500).describe('0-based position: how the column is found when it has no header'),
    header: z.string().max(200).nullable().default(null).describe('the header text: how the column is found'),
  })
  .meta({ id: 'CsvColumn' });
export type CsvColumn = z.infer<typeof CsvColumn>;

export const CsvAmount = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('signed'), column: CsvColumn }).describe('one column, negative = money out'),
    z
      .object({ kind: z.literal('split'), debit: CsvColumn, credit: CsvColumn })
      .describe('money out and money in in two columns (either may hold the sign or not)'),
    z
      .object({
        kind: z.literal('indicator'),
        column: CsvColumn,
        indicator: CsvColumn,
        debitValues: z.array(z.string().max(50)).min(1).max(10),
      })
      .describe('an unsigned amount and a column saying which way it went (S/H, Af/Bij, DR/CR…)'),
  ])
  .meta({ id: 'CsvAmount' });
export type CsvAmount = z.infer<typeof CsvAmount>;

export const CsvMapping = z
  .object({
    delimiter: z.enum([',', ';', '\t', '|']),
    headerRow: z.number().int().min(0).max(200).nullable().describe('0-based record of the header; null: no header'),
    firstDataRow: z.number().int().min(0).max(200).describe('0-based record of the first transaction'),
    date: CsvColumn,
    dateFormat: z.enum(DATE_FORMATS),
    valueDate: CsvColumn.nullable().default(null),
    amount: CsvAmount,
    decimal: z.enum(['.', ',']),
    invert: z.boolean().default(false).describe('flip every sign (card exports that print purchases positive)'),
    description: z.array(CsvColumn).max(5).default([]),
    counterparty: CsvColumn.nullable().default(null),
    payer: CsvColumn.nullable()
      .default(null)
      .describe('money in: the counterparty is read from this column (exports with separate payer and payee columns)'),
    reference: CsvColumn.nullable().default(null).describe("a column with the bank's unique id of each line"),
    balance: CsvColumn.nullable().default(null).describe('running balance after each line'),
    currency: CsvColumn.nullable().default(null),
    status: CsvColumn.nullable().default(null),
  })
  .meta({ id: 'CsvMapping' });
export type CsvMapping = z.infer<typeof CsvMapping>;
