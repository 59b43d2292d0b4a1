import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureDefaultCategories } from '../../../../src-main/store/categories/categories';
import { write } from '../../../../src-main/store/write';
import { makeTestApi, type TestApi } from '../../../helpers/api';

/** The import and reconciliation extension over real HTTP handling (fastify inject on a real SQLite file). */
const FIXTURES = path.resolve(__dirname, '../../../fixtures/import');

async function setup(): Promise<{ api: TestApi; token: string; account: string; teamId: string }> {
  const api = await makeTestApi();
  const token = api.key('Import Team');
  const teamId = api.team('Import Team').id;
  ensureDefaultCategories(api.db, teamId, { countryCode: 'DE' });
  const account = write(api.db, teamId, (w) =>
    w.insert('bank_account', { name: 'Giro', type: 'depository', currency: 'EUR', manual: 0 }),
  );
  return { api, token, account, teamId };
}

function upload(
  api: TestApi,
  token: string,
  account: string,
  body: Buffer,
  type = 'text/csv',
  name = 'statement.csv',
  query = '',
) {
  return api.app.inject({
    method: 'POST',
    url: `/v1/imports/uploads?bankAccountId=${account}${query}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': type, 'x-filename': encodeURIComponent(name) },
    payload: body,
  });
}

describe('import over the API', () => {
  it('imports MT940 files as banks write them (issue 37): daily statements of one account, SOH/ETX, :NS: fields', async () => {
    const { api, token, account, teamId } = await setup();
    const other = (currency: string) =>
      write(api.db, teamId, (w) => w.insert('bank_account', { name: currency, type: 'depository', currency, manual: 0 }));
    const cases: [string, string, number][] = [
      ['mt940-daily-one-account.sta', account, 3],
      ['mt940-soh-etx.sta', other('PLN'), 3],
      ['mt940-non-swift.sta', other('HUF'), 2],
    ];
    for (const [name, into, rows] of cases) {
      const bytes = fs.readFileSync(path.join(FIXTURES, 'as-banks-write', name));
      const up = await upload(api, token, into, bytes, 'application/octet-stream', name);
      expect(up.statusCode, up.body).toBe(201);
      expect(up.json()).toMatchObject({ format: 'mt940', counts: { rows, new: rows }, balance: { status: 'ok' } });
      const commit = await api.call('POST', `/v1/imports/uploads/${up.json().uploadId}/commit`, { token, body: {} });
      expect(commit.statusCode, commit.body).toBe(201);
      expect(commit.json().batch.counts).toMatchObject({ created: rows });
    }
    // Days of two accounts (the corpus file's shape) uploaded into a third: the first account's days go where its
    // earlier file went, the second's are asked for, and the answer says why the account given was not used.
    const two = fs.readFileSync(path.join(FIXTURES, 'as-banks-write', 'mt940-daily-two-accounts.sta'));
    const up = await upload(api, token, other('EUR'), two, 'application/octet-stream', 'rabo.sta');
    expect(up.statusCode, up.body).toBe(201);
    expect(
      up.json().statements.map((s: { bankAccountId: string | null; matchedBy: string | null }) => [s.bankAccountId, s.matchedBy]),
    ).toEqual([
      [account, 'earlier import'],
      [null, null],
    ]);
    expect(up.json().warnings[0]).toMatch(
      /^The file holds statements of 2 accounts \(3817\.42\.056EUR, 4402\.17\.930EUR\): the account given for the file is used only when/,
    );
    const early = await api.call('POST', `/v1/imports/uploads/${up.json().uploadId}/commit`, { token, body: {} });
    expect(early.statusCode).toBe(422);
    expect(early.json().fields.map((f: { path: string }) => f.path)).toEqual(['bankAccountId', 'accounts.4402.17.930EUR']);
  });

  it('uploads a raw CSV, previews it, commits it with a saved mapping, and reuses the mapping on the next file', async () => {
    const { api, token, account } = await setup();
    const dkb = fs.readFileSync(path.join(FIXTURES, 'dkb-giro.csv'));
    const up = await upload(api, token, account, dkb, 'text/csv', 'DKB März.csv');
    expect(up.statusCode, up.body).toBe(201);
    const preview = up.json();
    expect(preview).toMatchObject({
      fileName: 'DKB März.csv',
      format: 'csv',
      encoding: 'windows-1252',
      counts: { rows: 5, new: 5, duplicate: 0 },
      mapping: { delimiter: ';', dateFormat: 'DD.MM.YYYY', decimal: ',' },
      balance: { status: 'unchecked' },
      alreadyImported: null,
    });
    expect(preview.rows[0]).toMatchObject({ outcome: 'new', amount: -84, date: '2026-03-31', line: 8 });
    // "Column → field" by header name, with sample values.
    expect(preview.columns.find((c: { header: string }) => c.header === 'Betrag (EUR)')).toMatchObject({
      fields: ['amount'],
      samples: ['-84,00', '3.570,00', '-23,45'],
    });
    // Nothing written by a preview.
    expect(api.db.prepare('SELECT count(*) FROM transactions').pluck().get()).toBe(0);

    const commit = await api.call('POST', `/v1/imports/uploads/${preview.uploadId}/commit`, {
      token,
      body: { saveMappingAs: 'DKB Giro' },
    });
    expect(commit.statusCode, commit.body).toBe(201);
    expect(commit.json().batch).toMatchObject({ status: 'committed', mappingName: 'DKB Giro', counts: { created: 5 } });
    const mappings = await api.call('GET', `/v1/imports/mappings?bankAccountId=${account}`, { token });
    expect(mappings.json().data).toMatchObject([{ name: 'DKB Giro', mapping: { headerRow: 4 } }]);

    // The next month's file of the account uses the saved mapping; a re-upload of the same file is reported.
    const april = dkb.toString('latin1').replaceAll('.03.2026', '.05.2026');
    const next = await upload(api, token, account, Buffer.from(april, 'latin1'));
    expect(next.json()).toMatchObject({ mappingName: 'DKB Giro', counts: { new: 5 } });
    const again = await upload(api, token, account, dkb);
    expect(again.json()).toMatchObject({
      counts: { new: 0, duplicate: 5 },
      alreadyImported: { batchId: commit.json().batch.id },
    });
    const refused = await api.call('POST', `/v1/imports/uploads/${again.json().uploadId}/commit`, { token, body: {} });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/already imported/);

    const batches = await api.call('GET', `/v1/imports/batches?bankAccountId=${account}`, { token });
    expect(batches.json().data).toHaveLength(1);
    const rows = await api.call('GET', `/v1/imports/batches/${commit.json().batch.id}/rows?limit=2`, { token });
    expect(rows.json()).toMatchObject({ data: [{ position: 0, outcome: 'created' }, { position: 1 }], next: 1 });
    // The lines the batch made, as the import screen links to them.
    const made = await api.call('GET', `/app/transactions?importBatch=${commit.json().batch.id}&pageSize=100`, { token });
    expect(made.json().data).toHaveLength(5);
    expect((await api.call('GET', '/app/transactions?importBatch=nope', { token })).json().data).toEqual([]);
    const undo = await api.call('POST', `/v1/imports/batches/${commit.json().batch.id}/undo`, { token });
    expect(undo.json()).toMatchObject({ status: 'undone' });
    expect(api.db.prepare('SELECT count(*) FROM transactions').pluck().get()).toBe(0);
  });

  it('takes multipart and JSON base64 uploads of OFX, camt.053 and MT940 files', async () => {
    const { api, token, account } = await setup();
    const camt = fs.readFileSync(path.join(FIXTURES, 'camt053-v08.xml'));
    const boundary = '----finops-import';
    const multipart = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="camt.xml"\r\nContent-Type: application/xml\r\n\r\n`,
      ),
      camt,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const m = await upload(api, token, account, multipart, `multipart/form-data; boundary=${boundary}`);
    expect(m.statusCode, m.body).toBe(201);
    expect(m.json()).toMatchObject({ fileName: 'camt.xml', format: 'camt', counts: { rows: 6 }, balance: { status: 'ok' } });
    const mt = fs.readFileSync(path.join(FIXTURES, 'statement.mt940'));
    const j = await api.call('POST', `/v1/imports/uploads?bankAccountId=${account}`, {
      token,
      body: { fileName: 'stmt.sta', content: mt.toString('base64') },
    });
    expect(j.statusCode, j.body).toBe(201);
    expect(j.json()).toMatchObject({ format: 'mt940', counts: { rows: 4 }, balance: { status: 'ok', closing: 9622.14 } });
  });

  it('refuses a malformed file with 422 naming each line, and an unknown or foreign account', async () => {
    const { api, token, account } = await setup();
    const bad = Buffer.from(
      `Datum;Text;Betrag\n${Array.from({ length: 9 }, (_, i) => `0${i + 1}.03.2026;Shop;-1,00`).join('\n')}\n10.03.2026;Shop;zehn\n`,
    );
    const res = await upload(api, token, account, bad);
    expect(res.statusCode).toBe(422);
    expect(res.json().fields).toEqual([
      { location: 'body', path: 'line 11', message: 'line 11: amount: "zehn" is not an amount (decimal separator ",")' },
    ]);
    const other = api.key('Other Team');
    const foreign = await upload(api, other, account, bad);
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().fields[0]).toMatchObject({ path: 'bankAccountId' });
    const empty = await upload(api, token, account, Buffer.alloc(0));
    expect(empty.statusCode).toBe(422);
  });

  it('refuses a commit whose statement does not add up (409 naming the row) unless accepted', async () => {
    const { api, token, account } = await setup();
    const lloyds = fs
      .readFileSync(path.join(FIXTURES, 'lloyds.csv'), 'utf8')
      .replace('TESCO STORES 2291,18.29', 'TESCO STORES 2291,18.92');
    const up = (await upload(api, token, account, Buffer.from(lloyds))).json();
    const currency = api.db.prepare("UPDATE bank_accounts SET currency = 'GBP' WHERE id = ?");
    currency.run(account);
    const gbp = (await upload(api, token, account, Buffer.from(lloyds))).json();
    expect(gbp.balance).toMatchObject({
      status: 'mismatch',
      firstDivergingRow: { index: 2, line: 4, date: '2026-03-14' },
      difference: 0.63,
    });
    const res = await api.call('POST', `/v1/imports/uploads/${gbp.uploadId}/commit`, { token, body: {} });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/row 3 \(line 4, 2026-03-14\)/);
    const ok = await api.call('POST', `/v1/imports/uploads/${gbp.uploadId}/commit`, {
      token,
      body: { acceptBalanceMismatch: true },
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().batch.warnings[0]).toMatch(/Balance check/);
    expect(up.uploadId).toBeDefined();
  });

  it('imports a file of several accounts: asks for the accounts it needs (422 naming each), then one batch per account', async () => {
    const { api, token, account, teamId } = await setup();
    const savings = write(api.db, teamId, (w) =>
      w.insert('bank_account', { name: 'Tagesgeld', type: 'depository', currency: 'EUR', manual: 0 }),
    );
    const file = fs.readFileSync(path.join(FIXTURES, 'statements/mt940-all-accounts.sta'));
    const up = await api.app.inject({
      method: 'POST',
      url: '/v1/imports/uploads',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream', 'x-filename': 'alle.sta' },
      payload: file,
    });
    expect(up.statusCode, up.body).toBe(201);
    const id = up.json().uploadId;
    expect(up.json()).toMatchObject({
      bankAccountId: null,
      format: 'mt940',
      statements: [
        {
          accountRef: '37040044/0532013000',
          bankAccountId: null,
          needs: expect.stringContaining('accounts["37040044/0532013000"]'),
        },
        { accountRef: 'DE12500105170648489890', bankAccountId: null },
      ],
    });
    const early = await api.call('POST', `/v1/imports/uploads/${id}/commit`, { token, body: {} });
    expect(early.statusCode).toBe(422);
    expect(early.json().fields.map((f: { path: string }) => f.path)).toEqual([
      'accounts.37040044/0532013000',
      'accounts.DE12500105170648489890',
    ]);
    const accounts = { '37040044/0532013000': account, DE12500105170648489890: savings };
    const again = await api.call('POST', `/v1/imports/uploads/${id}/preview`, { token, body: { accounts } });
    expect(again.json()).toMatchObject({ counts: { rows: 4, new: 4 }, balance: { status: 'ok' } });
    expect(again.json().rows.map((r: { statement: number }) => r.statement)).toEqual([0, 0, 0, 1]);
    const commit = await api.call('POST', `/v1/imports/uploads/${id}/commit`, { token, body: { accounts } });
    expect(commit.statusCode, commit.body).toBe(201);
    expect(
      commit
        .json()
        .batches.map((b: { bankAccountId: string; counts: { created: number } }) => [b.bankAccountId, b.counts.created]),
    ).toEqual([
      [account, 3],
      [savings, 1],
    ]);
    const unknown = await api.call('POST', `/v1/imports/uploads/${id}/preview`, {
      token,
      body: { accounts: { 'DE00 0000': account } },
    });
    expect(unknown.statusCode).toBe(422);
  });

  it('splits a camt batch entry into its parts when the preview or commit asks for it', async () => {
    const { api, token, account } = await setup();
    const camt = fs.readFileSync(path.join(FIXTURES, 'camt053-v08.xml'));
    const up = await upload(api, token, account, camt, 'application/xml', 'camt.xml', '&splitBatches=true');
    expect(up.json().counts.rows).toBe(7);
    const whole = await api.call('POST', `/v1/imports/uploads/${up.json().uploadId}/preview`, { token, body: {} });
    expect(whole.json().counts.rows).toBe(6);
    const commit = await api.call('POST', `/v1/imports/uploads/${up.json().uploadId}/commit`, {
      token,
      body: { splitBatches: true },
    });
    expect(commit.json().batch.counts).toMatchObject({ rows: 7, created: 7 });
  });

  it('documents the routes as extensions in the OpenAPI document', async () => {
    const { api } = await setup();
    const doc = (await api.call('GET', '/v1/openapi.json')).json();
    for (const p of [
      '/v1/imports/uploads',
      '/v1/imports/uploads/{id}/commit',
      '/v1/imports/batches/{id}/undo',
      '/v1/reconciliations',
    ]) {
      const op = Object.values(doc.paths[p] as Record<string, { description?: string; security: unknown[] }>)[0]!;
      expect(op.description, p).toMatch(/^Extension/);
    }
    expect(Object.keys(doc.paths['/v1/imports/uploads'].post.requestBody.content)).toEqual(
      expect.arrayContaining(['text/csv', 'application/octet-stream', 'multipart/form-data', 'application/json']),
    );
  });
});

describe('reconciliation over the API', () => {
  it('shows a difference with the lines that explain it, reconciles when it agrees, then refuses edits until undone', async () => {
    const { api, token, account } = await setup();
    const tx = (body: Record<string, unknown>) =>
      api.call('POST', '/v1/transactions', { token, body: { currency: 'EUR', bankAccountId: account, ...body } });
    await tx({ name: 'Opening', amount: 1000, date: '2026-03-01' });
    const rent = (await tx({ name: 'Rent', amount: -400, date: '2026-03-02' })).json();
    await tx({ name: 'Card (pending)', amount: -25, date: '2026-03-30', status: 'pending' });
    await tx({ name: 'Fee', amount: -5, date: '2026-04-01' });

    const body = { bankAccountId: account, statementDate: '2026-03-31', closingBalance: 570 };
    const preview = await api.call('POST', '/v1/reconciliations/preview', { token, body });
    expect(preview.json()).toMatchObject({ clearedBalance: 600, difference: -30, balanced: false });
    const refused = await api.call('POST', '/v1/reconciliations', { token, body });
    expect(refused.statusCode).toBe(409);
    const near = { ...body, closingBalance: 575 };
    const explained = (await api.call('POST', '/v1/reconciliations/preview', { token, body: near })).json();
    expect(explained.candidates[0]).toMatchObject({
      name: 'Card (pending)',
      amount: -25,
      reason: expect.stringMatching(/pending/),
    });

    const ok = await api.call('POST', '/v1/reconciliations', { token, body: { ...body, closingBalance: 600 } });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().reconciliation).toMatchObject({ transactionCount: 2, status: 'reconciled', statementBalance: 600 });
    const edit = await api.call('PATCH', `/v1/transactions/${rent.id}`, { token, body: { amount: -450 } });
    expect(edit.statusCode).toBe(409);
    const note = await api.call('PATCH', `/v1/transactions/${rent.id}`, { token, body: { note: 'March rent' } });
    expect(note.statusCode).toBe(200);
    expect((await api.call('GET', `/v1/transactions/${rent.id}`, { token })).json().reconciledAt).not.toBeNull();

    const undo = await api.call('POST', `/v1/reconciliations/${ok.json().reconciliation.id}/undo`, { token });
    expect(undo.json()).toMatchObject({ status: 'undone' });
    expect((await api.call('PATCH', `/v1/transactions/${rent.id}`, { token, body: { amount: -450 } })).statusCode).toBe(200);
    const list = await api.call('GET', `/v1/reconciliations?bankAccountId=${account}`, { token });
    expect(list.json().data).toHaveLength(1);
  });
});
