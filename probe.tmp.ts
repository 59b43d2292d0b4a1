import fs from 'node:fs';
import { parseBankFile } from './src-main/import/parse-file';
import { checkBalances } from './src-shared/domain/import/balance';
for (const f of process.argv.slice(2)) {
  const r = parseBankFile(fs.readFileSync(f), { filename: f, currency: 'EUR' });
  console.log(f, r.file.format, JSON.stringify(r.file.errors), r.file.accountRef, checkBalances(r.file, 'EUR').status);
  for (const x of r.file.rows) console.log('  ', x.line, x.date, x.amountMinor, '|', x.name, '|', x.counterparty, '|', x.description, '|', x.externalId, JSON.stringify(x.details));
}
