import fs from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { parseRateFile } from '../../../src-shared/domain/rate-files';
import { isCurrencyCode } from '../../../src-shared/money';
import { importRates, recomputeAllTeams } from '../../store/exchange-rates/rates';
import { dataDirOption, withDatabase } from '../program';

function parseBase(value: string): string {
  const code = value.trim().toUpperCase();
  if (!isCurrencyCode(code)) throw new InvalidArgumentError('must be an ISO 4217 currency code such as EUR');
  return code;
}

/**
 * `finops rates import FILE`: loads exchange rates (docs/decisions/0056-exchange-rates.md) — `date,currency,rate`
 * per USD, or an ECB-style wide file per EUR (or `--base`) — validating every line first (a bad file writes nothing),
 * then recomputes every team's base amounts from the earliest imported day and reports what still lacks a rate.
 */
export function ratesCommand(): Command {
  const rates = new Command('rates');
  rates
    .command('import')
    .description('import exchange rates from a CSV file and recompute base-currency amounts')
    .argument('<file>', 'CSV: "date,currency,rate" (units per 1 USD) or "Date,USD,JPY,…" (units per 1 EUR, ECB style)')
    .addOption(dataDirOption())
    .addOption(new Option('--base <currency>', 'the currency a wide file is quoted against (default EUR)').argParser(parseBase))
    .addOption(new Option('--source <name>', 'where the rates come from, kept with each rate').default('import'))
    .action((file: string, opts: { dataDir?: string; base?: string; source: string }) => {
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch (err) {
        throw new Error(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
      const parsed = parseRateFile(text, { base: opts.base });
      withDatabase(opts, (db) => {
        const result = importRates(db, parsed.rows, { source: opts.source });
        const quoted = parsed.layout === 'wide' ? `per ${parsed.base}, rebased to per USD` : 'per USD';
        process.stdout.write(
          `imported ${result.rows} rates of ${result.currencies.length} currencies (${quoted}), ` +
            `${result.firstDay ?? '-'} to ${result.lastDay ?? '-'}: ${result.written} written, ${result.unchanged} unchanged\n`,
        );
        if (parsed.skipped.length) {
          process.stdout.write(`skipped the columns of withdrawn currencies: ${parsed.skipped.join(', ')}\n`);
        }
        if (result.rows === 0) return;
        const started = performance.now();
        const teams = recomputeAllTeams(db, result.firstDay, (t, i, total) => {
          process.stderr.write(
            `rates: base amounts of team "${t.name}" recomputed (${i + 1}/${total}, ${((performance.now() - started) / 1000).toFixed(1)} s)\n`,
          );
        });
        for (const t of teams) {
          process.stdout.write(
            `team "${t.name}": ${t.updated} base amounts updated; ${t.missing} transaction${t.missing === 1 ? '' : 's'} still without a rate\n`,
          );
        }
      });
    });
  return rates;
}
