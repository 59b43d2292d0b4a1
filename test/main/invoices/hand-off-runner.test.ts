import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readAccessPointKey } from '../../../src-main/einvoice/access-point/secrets';
import { submitDocument } from '../../../src-main/einvoice/access-point/storecove';
import { readEInvoiceXml } from '../../../src-main/einvoice/read';
import { drainHandOffs } from '../../../src-main/invoices/hand-off-runner';
import { createApiKey } from '../../../src-main/store/auth/api-keys';
import { type Db, openDatabase } from '../../../src-main/store/db';
import { claimNextHandOff, type HandOffRow, listHandOffs } from '../../../src-main/store/einvoice/handoffs';
import { makeTestApi, type TestApi } from '../../helpers/api';
import { E_INVOICE_BANK_ACCOUNT, E_INVOICE_BUYER, E_INVOICE_INVOICE, E_INVOICE_SELLER } from '../../helpers/einvoice-seller';
import { type StandIn, startStandIn } from '../einvoice/access-point/stand-in';

/**
 * E-invoices handed to a Peppol access point (docs/decisions/0162-peppol-access-point.md), end to end over a real
 * SQLite file and real HTTP on loopback: the invoice is sent through the API, the hand-off runner submits its UBL
 * to a stand-in of Storecove that validates every request against Storecove's published schema.
 */

const API_KEY = 'sc-secret-4b1d-api-key-0042';
const LEGAL_ENTITY = 4711;

const standIns: StandIn[] = [];
afterEach(async () => {
  for (const s of standIns.splice(0)) await s.stop();
});

async function standIn(apiKey = API_KEY) {
  const s = await startStandIn({ apiKey, legalEntityId: LEGAL_ENTITY });
  standIns.push(s);
  return s;
}

/** Every answer the test read, to look for the key in. */
const answers: string[] = [];

async function call(api: TestApi, token: string, method: string, url: string, body?: unknown) {
  const res = await api.call(method, url, { token, body });
  answers.push(res.body);
  return res;
}

async function ok(api: TestApi, token: string, method: string, url: string, body?: unknown) {
  const res = await call(api, token, method, url, body);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
}

/** A team that issues XRechnung UBL to a customer with a Peppol ID, its access point the stand-in. */
async function seed(api: TestApi, team: string, s: StandIn | null, customer: Record<string, unknown> = {}) {
  const token = api.key(team);
  await ok(api, token, 'PATCH', `/v1/teams/${api.team(team).id}`, E_INVOICE_SELLER);
  await ok(api, token, 'POST', '/v1/bank-accounts', E_INVOICE_BANK_ACCOUNT);
  if (s) {
    await ok(api, token, 'PUT', '/app/einvoice/access-point', {
      baseUrl: s.baseUrl,
      legalEntityId: LEGAL_ENTITY,
      apiKey: API_KEY,
    });
  }
  const c = await ok(api, token, 'POST', '/v1/customers', {
    ...E_INVOICE_BUYER,
    ...customer,
  });
  const invoice = await ok(api, token, 'POST', '/v1/invoices', {
    ...E_INVOICE_INVOICE,
    customerId: c.id,
  });
  const send = (body: Record<string, unknown> = {}) => ok(api, token, 'POST', `/v1/invoices/${invoice.id}/send`, body);
  const handOffs = async () => (await ok(api, token, 'GET', `/app/invoices/${invoice.id}/einvoice-handoffs`)).data;
  return {
    token,
    teamId: api.team(team).id,
    invoice: invoice as { id: string; amount: number; invoiceNumber: string },
    send,
    handOffs,
  };
}

const only = (rows: HandOffRow[]) => {
  expect(rows).toHaveLength(1);
  return rows[0]!;
};

describe('handing e-invoices to the Peppol access point', () => {
  it('hands the UBL of a sent invoice over once, routed to the customer, and shows the submission id', async () => {
    const s = await standIn();
    const api = await makeTestApi();
    const { teamId, invoice, send, handOffs, token } = await seed(api, 'Nordlicht', s);
    await send({ idempotencyKey: 'first-send' });
    await send({ idempotencyKey: 'first-send' });
    const [waiting] = await handOffs();
    expect(waiting).toMatchObject({
      state: 'waiting',
      recipient: '9930:DE987654321',
      format: 'xrechnung-ubl',
      submissionId: null,
    });

    expect(await drainHandOffs(api.db, { dataDir: api.dataDir })).toEqual({ handedOver: 1, waiting: 0, failed: 0 });
    expect(s.requests.map((r) => r.status)).toEqual([200]);
    const [sub] = s.submissions;
    const row = only(listHandOffs(api.db, teamId, invoice.id));
    expect(sub!.body).toMatchObject({
      legalEntityId: LEGAL_ENTITY,
      idempotencyGuid: row.idempotency_guid,
      routing: { eIdentifiers: [{ scheme: 'DE:VAT', id: 'DE987654321' }] },
      document: { documentType: 'invoice', rawDocumentData: { parse: true, parseStrategy: 'ubl' } },
    });
    expect(s.requests[0]!.authorization).toBe(`Bearer ${API_KEY}`);
    const read = readEInvoiceXml(sub!.ubl).invoice;
    expect(read.number).toBe(invoice.invoiceNumber);
    expect(read.totals.payableMinor).toBe(Math.round(invoice.amount * 100));
    expect(read.buyer.electronicAddress).toEqual({ scheme: '9930', value: 'DE987654321' });

    const [done] = await handOffs();
    expect(done).toMatchObject({ state: 'handed_over', submissionId: sub!.guid, attempts: 1, lastError: null });
    expect((await ok(api, token, 'GET', `/v1/invoices/${invoice.id}`)).sentAt).toBe(done.handedOverAt);
    // Nothing left to do.
    expect(await drainHandOffs(api.db, { dataDir: api.dataDir })).toEqual({ handedOver: 0, waiting: 0, failed: 0 });
    expect(s.submissions).toHaveLength(1);
  });

  it('routes Peppol BIS 3.0 too, and writes no hand-off for a customer without a Peppol ID or a CII format', async () => {
    const s = await standIn();
    const api = await makeTestApi();
    const bis = await seed(api, 'Nordlicht', s, {
      eInvoiceFormat: 'peppol-bis-3',
      peppolId: '0208:0403019261',
      email: 'ap@bis.example',
    });
    await bis.send();
    const noId = await seed(api, 'Nordlicht', s, { peppolId: null, email: 'ap@no-id.example' });
    await noId.send();
    const cii = await seed(api, 'Nordlicht', s, { eInvoiceFormat: 'xrechnung-cii', email: 'ap@cii.example' });
    await cii.send();
    expect(await noId.handOffs()).toEqual([]);
    expect(await cii.handOffs()).toEqual([]);
    expect(await drainHandOffs(api.db, { dataDir: api.dataDir })).toEqual({ handedOver: 1, waiting: 0, failed: 0 });
    expect(s.submissions[0]!.body.routing.eIdentifiers).toEqual([{ scheme: 'BE:EN', id: '0403019261' }]);
    expect(s.submissions[0]!.ubl).toContain('urn:fdc:peppol.eu:2017:poacc:billing:3.0');
  });

  it("hands an invoice to the Peppol ID it was issued to, when the customer's changed after the send (0119)", async () => {
    const s = await standIn();
    const api = await makeTestApi();
    const { send } = await seed(api, 'Nordlicht', s);
    await send();
    await seed(api, 'Nordlicht', s, { peppolId: '9930:DE111111111' });
    // The issued e-invoice names the buyer as it was that day: route and document agree, so it goes out as issued.
    expect(await drainHandOffs(api.db, { dataDir: api.dataDir })).toEqual({ handedOver: 1, waiting: 0, failed: 0 });
    expect(s.submissions[0]!.body.routing.eIdentifiers).toEqual([{ scheme: 'DE:VAT', id: 'DE987654321' }]);
  });

  it('submits once when two runners on one data dir drain together (the lease), and once after a runner died', async () => {
    const s = await standIn();
    const api = await makeTestApi();
    const a = await seed(api, 'Nordlicht', s);
    await a.send();
    const second: Db = openDatabase(api.dataDir);
    try {
      const [one, two] = await Promise.all([
        drainHandOffs(api.db, { dataDir: api.dataDir, owner: 'runner-a' }),
        drainHandOffs(second, { dataDir: api.dataDir, owner: 'runner-b' }),
      ]);
      expect(one.handedOver + two.handedOver).toBe(1);
      expect(s.requests).toHaveLength(1);

      // A runner that submitted and died before recording: the next one, after the lease, sends the same GUID; the
      // provider refuses it as already processed, which is the proof it was handed over.
      const b = await seed(api, 'Nordlicht', s);
      await b.send();
      const t0 = new Date();
      const claimed = claimNextHandOff(second, { owner: 'dead-runner', leaseMs: 1000, now: t0 })!;
      const issued = await (await import('../../../src-main/invoices/einvoice-issue')).issueEInvoice(
        second,
        api.dataDir,
        claimed.team_id,
        claimed.invoice_id,
        { format: claimed.format },
      );
      const first = await submitDocument({
        baseUrl: s.baseUrl,
        apiKey: API_KEY,
        legalEntityId: LEGAL_ENTITY,
        idempotencyGuid: claimed.idempotency_guid,
        recipient: claimed.recipient,
        ubl: issued.bytes,
      });
      expect(first.kind).toBe('accepted');
      const later = () => new Date(t0.getTime() + 5000);
      expect(await drainHandOffs(api.db, { dataDir: api.dataDir, clock: later })).toEqual({
        handedOver: 1,
        waiting: 0,
        failed: 0,
      });
      expect(s.submissions).toHaveLength(2);
      expect(s.requests.at(-1)).toMatchObject({ status: 422 });
      const [row] = await b.handOffs();
      expect(row).toMatchObject({ state: 'handed_over', attempts: 2, lastError: expect.stringMatching(/earlier attempt/) });
    } finally {
      second.close();
    }
  });

  it('waits while the access point is down or failing, and delivers when it is back', async () => {
    const s = await standIn();
    const api = await makeTestApi();
    const { send, handOffs } = await seed(api, 'Nordlicht', s);
    await send();
    await s.stop();
    const t0 = new Date();
    expect(await drainHandOffs(api.db, { dataDir: api.dataDir, clock: () => t0 })).toEqual({
      handedOver: 0,
      waiting: 1,
      failed: 0,
    });
    const [waiting] = await handOffs();
    expect(waiting).toMatchObject({
      state: 'waiting',
      attempts: 1,
      lastError: expect.stringMatching(/not reached.*ECONNREFUSED/),
    });
    // Not again before its back-off.
    expect(await drainHandOffs(api.db, { dataDir: api.dataDir, clock: () => t0 })).toEqual({
      handedOver: 0,
      waiting: 0,
      failed: 0,
    });

    await s.start();
    s.answerNext(503, { error: 'maintenance' });
    const t1 = new Date(t0.getTime() + 31_000);
    expect(await drainHandOffs(api.db, { dataDir: api.dataDir, clock: () => t1 })).toEqual({
      handedOver: 0,
      waiting: 1,
      failed: 0,
    });
    expect((await handOffs())[0]).toMatchObject({ state: 'waiting', attempts: 2, lastError: expect.stringMatching(/503/) });
    // The second back-off is twice the first.
    expect(await drainHandOffs(api.db, { dataDir: api.dataDir, clock: () => new Date(t1.getTime() + 31_000) })).toMatchObject({
      handedOver: 0,
    });
    const t2 = new Date(t1.getTime() + 61_000);
    expect(await drainHandOffs(api.db, { dataDir: api.dataDir, clock: () => t2 })).toEqual({
      handedOver: 1,
      waiting: 0,
      failed: 0,
    });
    expect((await handOffs())[0]).toMatchObject({ state: 'handed_over', attempts: 3, submissionId: s.submissions[0]!.guid });
    expect(s.submissions).toHaveLength(1);
  });

  it('cancels a hand-off still waiting when its invoice is canceled: the access point never gets it', async () => {
    const s = await standIn();
    const api = await makeTestApi();
    const { token, invoice, send, handOffs } = await seed(api, 'Nordlicht', s);
    await send();
    await s.stop();
    const t0 = new Date();
    await drainHandOffs(api.db, { dataDir: api.dataDir, clock: () => t0 });
    expect(only(await handOffs())).toMatchObject({ state: 'waiting' });

    await ok(api, token, 'PATCH', `/v1/invoices/${invoice.id}`, { status: 'canceled' });
    expect(only(await handOffs())).toMatchObject({ state: 'canceled', lastError: expect.stringMatching(/canceled/) });
    await s.start();
    const later = new Date(t0.getTime() + 3600_000);
    expect(await drainHandOffs(api.db, { dataDir: api.dataDir, clock: () => later })).toEqual({
      handedOver: 0,
      waiting: 0,
      failed: 0,
    });
    expect(s.submissions).toHaveLength(0);
  });

  it("fails visibly with the provider's message on a 4xx, and is not retried", async () => {
    const s = await standIn();
    const api = await makeTestApi();
    const { send, handOffs } = await seed(api, 'Nordlicht', s);
    await send();
    s.answerNext(422, [{ source: 'routing', details: 'The receiver is not registered on the Peppol network' }]);
    expect(await drainHandOffs(api.db, { dataDir: api.dataDir })).toEqual({ handedOver: 0, waiting: 0, failed: 1 });
    const [failed] = await handOffs();
    expect(failed).toMatchObject({
      state: 'failed',
      lastError: 'Storecove refused the e-invoice (422): routing: The receiver is not registered on the Peppol network',
    });
    const later = new Date(Date.now() + 24 * 3600_000);
    expect(await drainHandOffs(api.db, { dataDir: api.dataDir, clock: () => later })).toEqual({
      handedOver: 0,
      waiting: 0,
      failed: 0,
    });

    // A wrong key is the provider's 401: failed too, with its words. Sending again makes a new hand-off.
    const wrong = await standIn('another-key');
    const other = await seed(api, 'Other Co', wrong);
    await other.send();
    await drainHandOffs(api.db, { dataDir: api.dataDir });
    expect((await other.handOffs())[0]).toMatchObject({
      state: 'failed',
      lastError: expect.stringMatching(/\(401\).*Unauthorized/),
    });
  });

  it("keeps teams apart: each team's hand-offs go to its own access point, and no team reads another's", async () => {
    const sa = await standIn();
    const sb = await standIn();
    const api = await makeTestApi();
    const a = await seed(api, 'Nordlicht', sa);
    const b = await seed(api, 'Südwind', sb);
    const none = await seed(api, 'No Access Point', null);
    await a.send();
    await b.send();
    await none.send();
    expect(await none.handOffs()).toEqual([]);
    await drainHandOffs(api.db, { dataDir: api.dataDir });
    expect(sa.submissions.map((x) => readEInvoiceXml(x.ubl).invoice.seller.name)).toEqual(['Nordlicht']);
    expect(sb.submissions.map((x) => readEInvoiceXml(x.ubl).invoice.seller.name)).toEqual(['Südwind']);
    expect((await call(api, b.token, 'GET', `/app/invoices/${a.invoice.id}/einvoice-handoffs`)).statusCode).toBe(404);
    expect((await ok(api, none.token, 'GET', '/app/einvoice/access-point')).data).toBeNull();
    expect((await ok(api, b.token, 'GET', '/app/einvoice/access-point')).data.baseUrl).toBe(sb.baseUrl);
    // Removing B's access point leaves A's, and B's next hand-off waits for a new one.
    await ok(api, b.token, 'DELETE', '/app/einvoice/access-point');
    expect(readAccessPointKey(api.dataDir, b.teamId)).toBeUndefined();
    expect(readAccessPointKey(api.dataDir, a.teamId)).toBe(API_KEY);
  });

  it('keeps the API key in the secret file: never in an answer, never in the database', async () => {
    answers.length = 0;
    const s = await standIn();
    const api = await makeTestApi();
    const { token, send, handOffs, teamId } = await seed(api, 'Nordlicht', s);
    const first = await call(api, token, 'PUT', '/app/einvoice/access-point', {
      baseUrl: s.baseUrl,
      legalEntityId: LEGAL_ENTITY,
    });
    expect(first.json().data).toMatchObject({ provider: 'storecove', legalEntityId: LEGAL_ENTITY, apiKeySet: true });
    await send();
    await drainHandOffs(api.db, { dataDir: api.dataDir });
    await handOffs();
    await ok(api, token, 'GET', '/app/einvoice/access-point');
    await ok(api, token, 'GET', '/v1/invoices');
    expect((await call(api, token, 'GET', '/v1/openapi.json')).body).toContain('/app/einvoice/access-point');
    expect(answers.length).toBeGreaterThan(8);
    for (const body of answers) expect(body).not.toContain(API_KEY);
    api.db.pragma('wal_checkpoint(TRUNCATE)');
    for (const f of fs.readdirSync(api.dataDir).filter((n) => n.endsWith('.db') || n.includes('.db-'))) {
      expect(fs.readFileSync(path.join(api.dataDir, f)).includes(API_KEY), f).toBe(false);
    }
    expect(readAccessPointKey(api.dataDir, teamId)).toBe(API_KEY);
    expect(fs.statSync(path.join(api.dataDir, 'secrets', 'peppol.json')).mode & 0o777).toBe(0o600);
  });

  it('sets the access point as team administration, with field errors; the key is required the first time', async () => {
    const api = await makeTestApi();
    const token = api.key('Nordlicht');
    const noKey = await call(api, token, 'PUT', '/app/einvoice/access-point', { legalEntityId: 1 });
    expect(noKey.statusCode).toBe(422);
    expect(noKey.json().fields).toEqual([expect.objectContaining({ path: 'apiKey' })]);
    const bad = await call(api, token, 'PUT', '/app/einvoice/access-point', {
      baseUrl: 'ftp://x',
      legalEntityId: 0,
      provider: 'x',
    });
    expect(bad.statusCode).toBe(422);
    expect(
      bad
        .json()
        .fields.map((f: { path: string }) => f.path)
        .sort(),
    ).toEqual(['baseUrl', 'legalEntityId', 'provider']);
    const defaults = await ok(api, token, 'PUT', '/app/einvoice/access-point', { legalEntityId: 9, apiKey: 'k-1234' });
    expect(defaults.data.baseUrl).toBe('https://api.storecove.com/api/v2');
    const member = createApiKey(api.db, {
      teamId: api.team('Nordlicht').id,
      name: 'm',
      scopes: ['invoices.read', 'invoices.write'],
    });
    expect((await call(api, member.key, 'PUT', '/app/einvoice/access-point', { legalEntityId: 2 })).statusCode).toBe(403);
    expect((await call(api, member.key, 'DELETE', '/app/einvoice/access-point')).statusCode).toBe(403);
    expect((await call(api, member.key, 'GET', '/app/einvoice/access-point')).statusCode).toBe(200);
    await ok(api, token, 'DELETE', '/app/einvoice/access-point');
    expect((await call(api, token, 'DELETE', '/app/einvoice/access-point')).statusCode).toBe(404);
  });

  it("is handed over by the server's background work, started in runtime/background.ts", async () => {
    const s = await standIn();
    const api = await makeTestApi({ invoiceJobs: { senderIntervalMs: 100, schedulerIntervalMs: 60_000 } });
    const { send, handOffs } = await seed(api, 'Nordlicht', s);
    await send();
    const deadline = Date.now() + 15_000;
    while (s.submissions.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await expect.poll(async () => (await handOffs())[0]?.state, { timeout: 5000 }).toBe('handed_over');
    expect(s.submissions).toHaveLength(1);
  });

  it("holds requests to Storecove's schema: a misspelt or mistyped field is refused", async () => {
    const s = await standIn();
    const res = await fetch(`${s.baseUrl}/document_submissions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        legalEntityId: String(LEGAL_ENTITY),
        idempotencyGUID: '5d31afce-37c7-449c-9fca-4f9183467925',
        routing: { eIdentifiers: [{ scheme: 'DE', id: 'DE987654321' }] },
        document: { documentType: 'invoice', rawDocumentData: { document: 'PEludm9pY2Uv', parseStrategy: 'pdf' } },
      }),
    });
    expect(res.status).toBe(422);
    const details = ((await res.json()) as { source: string; details: string }[]).map((e) => `${e.source} ${e.details}`);
    expect(details).toEqual(
      expect.arrayContaining([
        '/legalEntityId must be integer',
        '/ must NOT have additional properties: idempotencyGUID',
        '/routing/eIdentifiers/0/scheme must NOT have fewer than 3 characters',
        '/document/rawDocumentData/parseStrategy must be equal to one of the allowed values',
      ]),
    );
    expect(s.submissions).toEqual([]);
  });
});
