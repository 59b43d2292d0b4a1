/**
 * @module-tag calendar
 *
 * Request bodies exactly as clients of the hosted service send them (its REST schemas: tracker entries with
 * `dates`, invoices with the editor's rich-text blocks, `/users/me` with its team), over real HTTP on loopback to a
 * real server (docs/decisions/0163-hosted-client-shapes.md). The hosted service's own e2e suite is not available
 * here: these are its request shapes, written down from its published schemas.
 */
import { describe, expect, it } from 'vitest';
import { embeddedInvoiceXml } from '../../../src-main/documents/embedded-invoice';
import { readEInvoiceXml } from '../../../src-main/einvoice/read';
import { createUser } from '../../../src-main/store/users/users';
import { makeTestApi } from '../../helpers/api';
import { E_INVOICE_BANK_ACCOUNT, E_INVOICE_BUYER, E_INVOICE_SELLER } from '../../helpers/einvoice-seller';
import { pdfText } from '../pdf/pdf-text';

async function server(team = 'Hosted Co') {
  const api = await makeTestApi();
  const token = api.key(team);
  // The team's owner: the person an API key acts for (docs/decisions/0086).
  createUser(api.db, api.team(team).id, { email: 'owner@hosted.example', passwordHash: 'x', fullName: 'Owner', role: 'owner' });
  const base = await api.listen();
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const type = res.headers.get('content-type') ?? '';
    return { status: res.status, body: type.includes('json') ? JSON.parse(bytes.toString('utf8')) : null, bytes };
  };
  return { api, call, team: api.team(team) };
}

const doc = (...paragraphs: string[]) => ({
  type: 'doc',
  content: paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});

describe('tracker entries in the hosted shape: an entry for each listed day', () => {
  it('creates one entry per day of `dates` at the same wall-clock times, and answers {data: [entries]}', async () => {
    const { api, call } = await server();
    const project = (await call('POST', '/v1/tracker-projects', { name: 'Website', billable: true, rate: 80, currency: 'EUR' }))
      .body;
    // The API key acts for the team owner; give them a zone with a daylight saving change inside the listed days.
    const me = (await call('PATCH', '/v1/users/me', { timezone: 'Europe/Berlin' })).body;
    expect(me.timezone).toBe('Europe/Berlin');
    const hosted = {
      projectId: project.id,
      start: '2026-10-23T07:00:00.000Z', // 09:00 in Berlin (summer time)
      stop: '2026-10-23T15:00:00.000Z', // 17:00
      dates: ['2026-10-23', '2026-10-26'], // the clocks go back on 25 October
      duration: 28_800,
      description: 'Implementation',
    };
    const res = await call('POST', '/v1/tracker-entries', hosted);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(
      res.body.data.map((e: { date: string; start: string; stop: string; duration: number }) => [
        e.date,
        e.start,
        e.stop,
        e.duration,
      ]),
    ).toEqual([
      ['2026-10-23', '2026-10-23T07:00:00.000Z', '2026-10-23T15:00:00.000Z', 28_800],
      ['2026-10-26', '2026-10-26T08:00:00.000Z', '2026-10-26T16:00:00.000Z', 28_800], // 09:00–17:00 in winter time
    ]);
    expect(res.body.data[0]).toMatchObject({ projectId: project.id, description: 'Implementation', amount: 640, billed: false });
    const range = (await call('GET', '/v1/tracker-entries?from=2026-10-01&to=2026-10-31')).body;
    expect(Object.keys(range.result).sort()).toEqual(['2026-10-23', '2026-10-26']);
    expect(range.meta.totalDuration).toBe(57_600);

    // One listed day is the hosted shape too: still {data: [entry]}; our own shape still answers the entry.
    const one = await call('POST', '/v1/tracker-entries', { ...hosted, dates: ['2026-12-01'] });
    expect(one.body.data).toHaveLength(1);
    expect(one.body.data[0]).toMatchObject({ date: '2026-12-01', start: '2026-12-01T08:00:00.000Z' });
    const ours = await call('POST', '/v1/tracker-entries', {
      projectId: project.id,
      start: '2026-12-02T08:00:00Z',
      duration: 600,
    });
    expect(ours.status).toBe(200);
    expect(ours.body).toMatchObject({ projectId: project.id, duration: 600, date: '2026-12-02' });
    expect(api.db.prepare('SELECT COUNT(*) FROM tracker_entries').pluck().get()).toBe(4);
  });

  it('takes the hosted bulk body {entries: [...]} with dates, all or nothing', async () => {
    const { api, call } = await server();
    const project = (await call('POST', '/v1/tracker-projects', { name: 'Migration' })).body;
    const entry = (dates: string[], description: string) => ({
      start: '2026-04-15T09:00:00.000Z',
      stop: '2026-04-15T17:00:00.000Z',
      dates,
      projectId: project.id,
      description,
      duration: 28_800,
    });
    const res = await call('POST', '/v1/tracker-entries/bulk', {
      entries: [entry(['2026-04-15', '2026-04-16'], 'Authentication'), entry(['2026-04-17'], 'Dashboard')],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.map((e: { date: string; description: string }) => `${e.date} ${e.description}`)).toEqual([
      '2026-04-15 Authentication',
      '2026-04-16 Authentication',
      '2026-04-17 Dashboard',
    ]);
    // A broken second item: nothing of the request is written, and the error names the item.
    const bad = await call('POST', '/v1/tracker-entries/bulk', {
      entries: [entry(['2026-05-01'], 'ok'), { ...entry(['2026-05-02'], 'broken'), projectId: 'nope' }],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.description).toContain('[1].projectId');
    expect(api.db.prepare('SELECT COUNT(*) FROM tracker_entries').pluck().get()).toBe(3);
  });

  it('refuses dates it cannot take, naming the field: with date, twice the same day, none, too many', async () => {
    const { call } = await server();
    const project = (await call('POST', '/v1/tracker-projects', { name: 'P' })).body;
    const base = { projectId: project.id, start: '2026-04-15T09:00:00Z', stop: '2026-04-15T10:00:00Z', duration: 3600 };
    const cases: [unknown, string][] = [
      [{ ...base, dates: ['2026-04-15'], date: '2026-04-15' }, 'date'],
      [{ ...base, dates: ['2026-04-15', '2026-04-15'] }, 'dates'],
      [{ ...base, dates: [] }, 'dates'],
      [{ ...base, dates: ['2026-02-30'] }, 'dates'],
      [
        { ...base, dates: Array.from({ length: 367 }, (_, i) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10)) },
        'dates',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', '/v1/tracker-entries', body);
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(422);
      expect(res.body.description).toContain(field);
    }
    // 100 items of 11 days each are more entries than one request creates.
    const many = Array.from({ length: 100 }, () => ({
      ...base,
      dates: Array.from({ length: 11 }, (_, i) => `2026-06-${String(i + 1).padStart(2, '0')}`),
    }));
    const tooMany = await call('POST', '/v1/tracker-entries/bulk', { entries: many });
    expect(tooMany.status).toBe(422);
    expect(`${tooMany.body.message} ${tooMany.body.description}`).toContain('at most 1000');
  });
});

describe('invoices in the hosted shape: the editor blocks', () => {
  /** The hosted REST example body (its createInvoiceRequestSchema), for our customer. */
  const hostedInvoice = (customerId: string) => ({
    template: {
      title: 'Invoice',
      customerLabel: 'Bill To',
      fromLabel: 'From',
      invoiceNoLabel: 'Invoice #',
      paymentLabel: 'Payment Information',
      noteLabel: 'Notes',
      currency: 'EUR',
      paymentDetails: doc('Wire Transfer: Chase Bank, Account: 1234567890'),
      fromDetails: doc('TechCorp Inc, 123 Business Ave, San Francisco, CA 94105'),
      size: 'a4',
      includeVat: true,
      includeTax: false,
      includeDiscount: false,
      includeDecimals: true,
      includeUnits: true,
      includePdf: true,
      sendCopy: true,
      includeQr: false,
      dateFormat: 'dd.MM.yyyy',
      taxRate: null,
      vatRate: 19,
      deliveryType: 'create',
      timezone: 'Europe/Berlin',
      locale: 'en-US',
    },
    fromDetails: {
      type: 'doc',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'TechCorp Inc', marks: [{ type: 'strong' }] }] },
        { type: 'paragraph', content: [{ type: 'text', text: '123 Business Ave' }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'San Francisco, CA 94105' }] },
      ],
    },
    customerId,
    paymentDetails: doc('Wire Transfer:', 'IBAN DE89 3704 0044 0532 0130 00'),
    noteDetails: {
      type: 'doc',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'Payment is due within 30 days of invoice date.' }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'Thank you for your business!', marks: [{ type: 'italic' }] }] },
      ],
    },
    dueDate: '2026-07-15T23:59:59.000Z',
    issueDate: '2026-06-15T00:00:00.000Z',
    logoUrl: 'https://example.com/logo.png',
    vat: null,
    tax: 85.0,
    discount: null,
    topBlock: doc('This invoice covers the development work completed in June 2026.'),
    bottomBlock: {
      type: 'doc',
      content: [
        {
          type: 'bulletList',
          content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Net 30' }] }] }],
        },
      ],
    },
    amount: 1500.75,
    lineItems: [
      {
        name: {
          type: 'doc',
          content: [
            { type: 'paragraph', content: [{ type: 'text', text: 'UI/UX Design', marks: [{ type: 'strong' }] }] },
            { type: 'paragraph', content: [{ type: 'text', text: 'User interface design', marks: [{ type: 'italic' }] }] },
          ],
        },
        quantity: 20,
        unit: 'hours',
        price: 50.0,
        vat: null,
      },
      { name: doc('Hosting'), quantity: 1, price: 25, vat: 7, productId: 'b3b6e2c2-1f2a-4e3b-9c1d-2a4b6e2c21f2' },
    ],
    deliveryType: 'create',
  });

  it('accepts the hosted editor body, keeps the documents, and prints their plain text (PDF, e-invoice)', async () => {
    const { call, team } = await server('Editor Co');
    await call('PATCH', `/v1/teams/${team.id}`, E_INVOICE_SELLER);
    await call('POST', '/v1/bank-accounts', E_INVOICE_BANK_ACCOUNT);
    const customer = (await call('POST', '/v1/customers', E_INVOICE_BUYER)).body;
    const body = hostedInvoice(customer.id);
    const res = await call('POST', '/v1/invoices', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const inv = res.body;
    expect(inv.status).toBe('draft');
    expect(inv.template).toMatchObject({
      fromDetails: 'TechCorp Inc\n123 Business Ave\nSan Francisco, CA 94105',
      paymentDetails: 'Wire Transfer:\nIBAN DE89 3704 0044 0532 0130 00',
      logoUrl: 'https://example.com/logo.png',
      customerLabel: 'Bill To',
      vatRate: 19,
      taxRate: 0,
    });
    expect(inv.note).toBe('Payment is due within 30 days of invoice date.\nThank you for your business!');
    expect(inv.fromDetails).toEqual(body.fromDetails);
    expect(inv.paymentDetails).toEqual(body.paymentDetails);
    expect(inv.noteDetails).toEqual(body.noteDetails);
    expect(inv.topBlock).toEqual(body.topBlock);
    expect(inv.bottomBlock).toEqual(body.bottomBlock);
    expect(inv.lineItems.map((l: { name: string; amount: number }) => [l.name, l.amount])).toEqual([
      ['UI/UX Design\nUser interface design', 1000],
      ['Hosting', 25],
    ]);
    expect(inv.lineItems[0].nameContent).toEqual(body.lineItems[0]!.name);
    // Totals are ours (the editor's own vat, tax and amount are not taken): 1000 × 19 % + 25 × 7 %.
    expect([inv.subtotal, inv.vat, inv.tax, inv.amount]).toEqual([1025, 191.75, 0, 1216.75]);
    expect((await call('GET', `/v1/invoices/${inv.id}`)).body).toEqual(inv);

    const pdf = await call('GET', `/v1/invoices/${inv.id}/pdf`);
    expect(pdf.status).toBe(200);
    const text = (await pdfText(pdf.bytes)).join('\n');
    for (const printed of ['UI/UX Design', 'User interface design', 'Thank you for your business!', 'IBAN DE89 3704']) {
      expect(text).toContain(printed);
    }
    expect(text).not.toContain('"type"');

    const xml = await call('GET', `/v1/invoices/${inv.id}/e-invoice?format=factur-x-en16931`);
    expect(xml.status).toBe(200);
    const read = readEInvoiceXml((await embeddedInvoiceXml(xml.bytes))?.xml ?? '').invoice;
    expect(read.lines.map((l) => l.name)).toEqual(['UI/UX Design\nUser interface design', 'Hosting']);
    expect(read.notes).toEqual(['Payment is due within 30 days of invoice date.\nThank you for your business!']);
  });

  it('replaces a block given later as text, and refuses a note that disagrees with noteDetails', async () => {
    const { call } = await server();
    const customer = (await call('POST', '/v1/customers', { name: 'Buyer' })).body;
    const inv = (await call('POST', '/v1/invoices', hostedInvoice(customer.id))).body;
    const patched = await call('PUT', `/v1/invoices/${inv.id}`, {
      fromDetails: 'Plain Sender Ltd',
      noteDetails: doc('New note'),
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ fromDetails: null, note: 'New note', noteDetails: doc('New note') });
    expect(patched.body.template.fromDetails).toBe('Plain Sender Ltd');
    expect(patched.body.paymentDetails).toEqual(hostedInvoice(customer.id).paymentDetails);
    const both = await call('PATCH', `/v1/invoices/${inv.id}`, { note: 'one', noteDetails: doc('another') });
    expect(both.status).toBe(422);
    expect(both.body.description).toContain('noteDetails');
    const plainNote = await call('PATCH', `/v1/invoices/${inv.id}`, { note: 'Only text' });
    expect(plainNote.body).toMatchObject({ note: 'Only text', noteDetails: null });
    // The team's defaults take the editor's blocks as their text.
    const settings = await call('PATCH', '/v1/invoices/settings', {
      template: { fromDetails: doc('Default Sender', 'Main Street 1'), paymentDetails: 'IBAN DE00' },
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    expect(settings.body.template).toMatchObject({ fromDetails: 'Default Sender\nMain Street 1', paymentDetails: 'IBAN DE00' });
  });

  it('refuses hostile documents with a 422 naming the field, never a 500: too deep, too many nodes, not a document', async () => {
    const { call } = await server();
    let deep: Record<string, unknown> = { type: 'text', text: 'x' };
    for (let i = 0; i < 1000; i++) deep = { type: 'paragraph', content: [deep] };
    const wide = { type: 'doc', content: Array.from({ length: 6000 }, () => ({ type: 'paragraph' })) };
    const cases: [unknown, string][] = [
      [{ noteDetails: { type: 'doc', content: [deep] } }, 'noteDetails'],
      [{ fromDetails: wide }, 'fromDetails'],
      [{ paymentDetails: { type: 'paragraph' } }, 'paymentDetails'],
      [{ lineItems: [{ name: { type: 'doc', content: [] }, price: 1 }] }, 'lineItems.0.name'],
      [{ lineItems: [{ name: doc('x'.repeat(501)), price: 1 }] }, 'lineItems.0.name'],
      [{ topBlock: { type: 'doc', content: [{ type: 'text', text: 42 }] } }, 'topBlock'],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', '/v1/invoices', body);
      expect(res.status, field).toBe(422);
      expect(res.body.description, field).toContain(field);
    }
  });
});

describe('/v1/users/me with the team the hosted service embeds', () => {
  it('GET and PATCH answer the team {id, name, logoUrl, plan}', async () => {
    const { call, team } = await server('Embed Co');
    const got = await call('GET', '/v1/users/me');
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      avatarUrl: null,
      teamId: team.id,
      team: { id: team.id, name: 'Embed Co', logoUrl: null, plan: 'pro' },
    });
    await call('PATCH', `/v1/teams/${team.id}`, { logoUrl: 'https://example.com/embed.png' });
    const patched = await call('PATCH', '/v1/users/me', { fullName: 'Jane Doe', locale: 'de-DE' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      fullName: 'Jane Doe',
      locale: 'de-DE',
      team: { id: team.id, name: 'Embed Co', logoUrl: 'https://example.com/embed.png', plan: 'pro' },
    });
  });
});
