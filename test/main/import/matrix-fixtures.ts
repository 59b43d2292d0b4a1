import { commitFile } from '../../../src-main/import/service';
import { saveImportMapping } from '../../../src-main/store/import/mappings';
import { listTransferPairs } from '../../../src-main/store/import/transfers';
import { reconcile } from '../../../src-main/store/reconciliation/reconciliation';
import { createTransactions } from '../../../src-main/store/transactions/create';
import { write } from '../../../src-main/store/write';
import type { TestApi } from '../../helpers/api';

/**
 * Records of the owner team for the import and reconciliation routes of the authorization matrix
 * (test/main/server/authorization-matrix.test.ts spreads these into its tables). Each file is unique, so no commit
 * meets an earlier import of the same file.
 */
let n = 0;

/** The team a token belongs to (fixtures make records of the caller's team). */
async function teamOf(api: TestApi, token: string): Promise<string> {
  return (await api.call('GET', '/v1/teams', { token })).json().data[0].id;
}

function account(api: TestApi, teamId: string): string {
  return write(api.db, teamId, (w) =>
    w.insert('bank_account', { name: `Import Matrix ${++n}`, type: 'depository', currency: 'EUR', manual: 0 }),
  );
}

function file(rows: string[] = [`02.03.2026;Matrix Shop ${++n};Karte;-${n},00`]): Buffer {
  return Buffer.from(`Buchungstag;Auftraggeber;Verwendungszweck;Betrag\n${rows.join('\n')}\n`);
}

export const matrixImportFile = () => ({ fileName: 'matrix.csv', content: file().toString('base64') });

async function upload(api: TestApi, token: string): Promise<string> {
  const acc = account(api, await teamOf(api, token));
  const res = await api.call('POST', `/v1/imports/uploads?bankAccountId=${acc}`, { token, body: matrixImportFile() });
  return res.json().uploadId;
}

async function batch(api: TestApi, teamId: string): Promise<string> {
  return (await commitFile(api.db, teamId, account(api, teamId), file(), { fileName: 'matrix.csv' })).batch.id;
}

/** The hand-entered candidate the link body names (set by the review fixture). */
let candidate = '';

async function reviewItem(api: TestApi, teamId: string): Promise<string> {
  const acc = account(api, teamId);
  const amount = ++n;
  const [a] = createTransactions(api.db, teamId, [
    { bankAccountId: acc, name: 'Taxi', amountMinor: -amount * 100, currency: 'EUR', date: '2026-03-01', manual: true },
    { bankAccountId: acc, name: 'Taxi', amountMinor: -amount * 100, currency: 'EUR', date: '2026-03-03', manual: true },
  ]);
  candidate = a!;
  return (await commitFile(api.db, teamId, acc, file([`02.03.2026;Taxi;Fahrt;-${amount},00`]), {})).review[0]!.itemId;
}

async function linked(api: TestApi, teamId: string): Promise<string> {
  const acc = account(api, teamId);
  const amount = ++n;
  const [t] = createTransactions(api.db, teamId, [
    { bankAccountId: acc, name: 'Matrix Coffee', amountMinor: -amount * 100, currency: 'EUR', date: '2026-03-02', manual: true },
  ]);
  await commitFile(api.db, teamId, acc, file([`02.03.2026;Matrix Coffee;Karte;-${amount},00`]), {});
  return t!;
}

async function transfer(api: TestApi, teamId: string, status: 'paired' | 'suggested'): Promise<string> {
  const [from, to] = [account(api, teamId), account(api, teamId)];
  const amount = ++n;
  const credits =
    status === 'paired'
      ? [`06.01.2026;Giro;Umbuchung;${amount},00`]
      : [`06.01.2026;Giro;Umbuchung;${amount},00`, `08.01.2026;Giro;Umbuchung;${amount},00`];
  await commitFile(api.db, teamId, to, file(credits), {});
  const r = await commitFile(api.db, teamId, from, file([`07.01.2026;Tagesgeld;Umbuchung;-${amount},00`]), {});
  return listTransferPairs(api.db, teamId, { status, batchId: r.batch.id })[0]!.id;
}

async function reconciliation(api: TestApi, teamId: string): Promise<string> {
  return reconcile(api.db, teamId, {
    bankAccountId: account(api, teamId),
    statementDate: '2026-03-31',
    statementBalanceMinor: 0,
  }).reconciliation.id;
}

type Fixture = (api: TestApi, token: string) => Promise<string>;
const of =
  (make: (api: TestApi, teamId: string) => string | Promise<string>): Fixture =>
  async (api, token) =>
    make(api, await teamOf(api, token));

export const IMPORT_FIXTURES: Record<string, Fixture> = {
  '/v1/imports/uploads/{id}/preview': (api, token) => upload(api, token),
  '/v1/imports/uploads/{id}/commit': (api, token) => upload(api, token),
  '/v1/imports/batches/{id}': of(batch),
  '/v1/imports/batches/{id}/rows': of(batch),
  '/v1/imports/batches/{id}/undo': of(batch),
  '/v1/imports/review/{id}': of(reviewItem),
  '/v1/imports/review/{id}/link': of(reviewItem),
  '/v1/imports/review/{id}/create': of(reviewItem),
  '/v1/imports/links/{id}/unlink': of(linked),
  '/v1/imports/mappings/{id}': of(async (api, teamId) => {
    const acc = account(api, teamId);
    const m = (await commitFile(api.db, teamId, acc, file(), {})).batch.mapping!;
    return saveImportMapping(api.db, teamId, acc, `matrix ${++n}`, m).id;
  }),
  '/v1/transfers/{id}/accept': of((api, teamId) => transfer(api, teamId, 'suggested')),
  '/v1/transfers/{id}/unpair': of((api, teamId) => transfer(api, teamId, 'paired')),
  '/v1/reconciliations/{id}': of(reconciliation),
  '/v1/reconciliations/{id}/undo': of(reconciliation),
};

export const IMPORT_MADE_BODIES: Record<string, (api: TestApi, token: string) => Promise<unknown>> = {
  'POST /v1/imports/uploads': async () => matrixImportFile(),
  'POST /v1/imports/review/{id}/link': async () => ({ transactionId: candidate }),
  'POST /v1/reconciliations/preview': async (api, token) => ({
    bankAccountId: account(api, await teamOf(api, token)),
    statementDate: '2026-03-31',
    closingBalance: 0,
  }),
  'POST /v1/reconciliations': async (api, token) => ({
    bankAccountId: account(api, await teamOf(api, token)),
    statementDate: '2026-03-31',
    closingBalance: 0,
  }),
};

export const IMPORT_MADE_QUERIES: Record<string, (api: TestApi, token: string) => Promise<string>> = {
  'POST /v1/imports/uploads': async (api, token) => `?bankAccountId=${account(api, await teamOf(api, token))}`,
};
