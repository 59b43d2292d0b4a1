/**
 * The invoice email queue against a real SMTP server started by the test (smtp-server on 127.0.0.1): waiting for
 * sync without SMTP, sending with the PDF attached once SMTP is set, idempotent reminders, permanent and temporary
 * refusals, and a sending process killed mid-queue whose emails all go out exactly once after a restart.
 *
 * @module-tag slow (spawns processes; left out of `npm run test:fast`)
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { drainDeliveries } from '../../../src-main/invoices/sender';
import { openDatabase } from '../../../src-main/store/db';
import { deliveryCounts, listDeliveries } from '../../../src-main/store/invoices/deliveries';
import { getInvoice } from '../../../src-main/store/invoices/read';
import { queueInvoiceReminder, sendInvoice } from '../../../src-main/store/invoices/send';
import { clearSmtpSettings, setSmtpSettings } from '../../../src-main/store/invoices/smtp';
import { updateInvoice } from '../../../src-main/store/invoices/write';
import { FINOPS_BIN } from '../../helpers/cli';
import { startTestSmtp, type TestSmtp } from '../../helpers/smtp';
import { invoice, seedTeam } from './fixtures';

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

function plainSmtp(port: number) {
  return {
    host: '127.0.0.1',
    port,
    security: 'none' as const,
    username: null,
    fromAddress: 'billing@studio.example',
    fromName: 'Studio Billing',
  };
}

async function smtpServer(): Promise<TestSmtp> {
  const smtp = await startTestSmtp();
  closers.push(() => smtp.close());
  return smtp;
}

describe('invoice email queue', () => {
  it('waits for sync without SMTP, then sends with the PDF attached once SMTP is set', async () => {
    const { db, dataDir, teamId, customerId } = seedTeam('Studio');
    closers.push(() => db.close());
    const smtp = await smtpServer();
    const inv = invoice(db, teamId, { customerId, issueDate: '2099-01-01' });
    const sent = sendInvoice(db, teamId, inv.id);
    expect(sent.status).toBe('unpaid');
    expect(sent.delivery).toMatchObject({ state: 'awaiting_sync', recipient: 'ap@acme.example', kind: 'invoice' });
    // Nothing to send while no SMTP server is configured.
    expect(await drainDeliveries(db, { dataDir })).toEqual({ sent: 0, retried: 0, failed: 0, awaitingSync: 0 });
    expect(smtp.received).toHaveLength(0);

    setSmtpSettings(db, teamId, plainSmtp(smtp.port));
    expect(getInvoice(db, teamId, inv.id).delivery?.state).toBe('queued');
    expect(await drainDeliveries(db, { dataDir })).toEqual({ sent: 1, retried: 0, failed: 0, awaitingSync: 0 });
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.to).toEqual(['ap@acme.example']);
    expect(mail.from).toBe('billing@studio.example');
    expect(mail.subject).toBe(`Invoice ${inv.invoiceNumber} from Studio`);
    expect(mail.raw).toContain('Content-Type: application/pdf');
    expect(mail.raw).toContain(`${inv.invoiceNumber}.pdf`);
    expect(mail.raw).toMatch(/450[.,]00/); // 3 × 150.00
    const delivery = listDeliveries(db, teamId, inv.id)[0]!;
    expect(mail.messageId).toBe(delivery.message_id);
    const after = getInvoice(db, teamId, inv.id);
    expect(after.delivery).toMatchObject({ state: 'sent', attempts: 1 });
    expect(after.sentAt).not.toBeNull();
    // Drained: a second pass sends nothing.
    expect((await drainDeliveries(db, { dataDir })).sent).toBe(0);
  });

  it('sends the subject and text the person wrote in the send dialog, the PDF still attached', async () => {
    const { db, dataDir, teamId, customerId } = seedTeam('Studio');
    closers.push(() => db.close());
    const smtp = await smtpServer();
    setSmtpSettings(db, teamId, plainSmtp(smtp.port));
    const inv = invoice(db, teamId, { customerId, issueDate: '2099-01-01' });
    sendInvoice(db, teamId, inv.id, { subject: 'Your April invoice', message: 'Hi Acme,\n\nhere it is.\n\nStudio' });
    expect((await drainDeliveries(db, { dataDir })).sent).toBe(1);
    const mail = smtp.received[0]!;
    expect(mail.subject).toBe('Your April invoice');
    expect(mail.raw).toContain('here it is.');
    expect(mail.raw).not.toContain('please find attached');
    expect(mail.raw).toContain(`${inv.invoiceNumber}.pdf`);
  });

  it('queues a reminder once per idempotency key and only for an open invoice', async () => {
    const { db, dataDir, teamId, customerId } = seedTeam();
    closers.push(() => db.close());
    const smtp = await smtpServer();
    setSmtpSettings(db, teamId, plainSmtp(smtp.port));
    const inv = invoice(db, teamId, { customerId, issueDate: '2025-01-01', dueDate: '2025-01-10' });
    expect(() => queueInvoiceReminder(db, teamId, inv.id, { idempotencyKey: 'step-1' })).toThrow(/The invoice is draft/);
    updateInvoice(db, teamId, inv.id, { status: 'unpaid' });
    expect(getInvoice(db, teamId, inv.id).status).toBe('overdue');
    const a = queueInvoiceReminder(db, teamId, inv.id, { idempotencyKey: 'step-1' });
    const b = queueInvoiceReminder(db, teamId, inv.id, { idempotencyKey: 'step-1' });
    expect(b.id).toBe(a.id);
    expect((await drainDeliveries(db, { dataDir })).sent).toBe(1);
    expect(smtp.received.map((m) => m.subject)).toEqual([`Reminder: invoice ${inv.invoiceNumber} is overdue`]);
    expect(getInvoice(db, teamId, inv.id).reminderSentAt).not.toBeNull();
    // The same key after sending still returns the sent one: no second email.
    expect(queueInvoiceReminder(db, teamId, inv.id, { idempotencyKey: 'step-1' }).state).toBe('sent');
    expect((await drainDeliveries(db, { dataDir })).sent).toBe(0);
    updateInvoice(db, teamId, inv.id, { status: 'paid' });
    expect(() => queueInvoiceReminder(db, teamId, inv.id, { idempotencyKey: 'step-2' })).toThrow(/Allowed next states/);
  });

  it('fails a refused email for good, retries a deferred one later, and hands emails back to sync when SMTP goes', async () => {
    const { db, dataDir, teamId, customerId } = seedTeam();
    closers.push(() => db.close());
    const smtp = await smtpServer();
    setSmtpSettings(db, teamId, plainSmtp(smtp.port));
    smtp.onMessage = (i) => (i === 0 ? 'reject' : i === 1 ? 'defer' : 'accept');
    const first = invoice(db, teamId, { customerId, issueDate: '2099-01-01', deliveryType: 'create_and_send' });
    const second = invoice(db, teamId, { customerId, issueDate: '2099-01-01', deliveryType: 'create_and_send' });
    const now = new Date();
    expect(await drainDeliveries(db, { dataDir, clock: () => now })).toEqual({ sent: 0, retried: 1, failed: 1, awaitingSync: 0 });
    expect(getInvoice(db, teamId, first.id).delivery).toMatchObject({ state: 'failed' });
    expect(getInvoice(db, teamId, first.id).delivery?.lastError).toContain('Recipient refused');
    expect(getInvoice(db, teamId, second.id).delivery).toMatchObject({ state: 'queued', attempts: 1 });
    // Not before its back-off (1 minute after the first attempt).
    expect((await drainDeliveries(db, { dataDir, clock: () => new Date(now.getTime() + 30_000) })).sent).toBe(0);
    expect((await drainDeliveries(db, { dataDir, clock: () => new Date(now.getTime() + 61_000) })).sent).toBe(1);
    expect(getInvoice(db, teamId, second.id).delivery).toMatchObject({ state: 'sent', attempts: 2 });

    const third = invoice(db, teamId, { customerId, issueDate: '2099-01-01', deliveryType: 'create_and_send' });
    expect(getInvoice(db, teamId, third.id).delivery?.state).toBe('queued');
    clearSmtpSettings(db, teamId);
    expect(getInvoice(db, teamId, third.id).delivery?.state).toBe('awaiting_sync');
    expect(deliveryCounts(db, teamId)).toEqual({ awaiting_sync: 1, failed: 1, sent: 1 });
  });

  // Spawns the CLI twice (slow under load): left out of `npm run test:fast`.
  it('sends each email exactly once when the sending process is killed mid-queue and started again', {
    tags: ['slow'],
    timeout: 120_000,
  }, async () => {
    const { db, dataDir, teamId, customerId } = seedTeam('Kill Team');
    closers.push(() => db.close());
    const smtp = await smtpServer();
    setSmtpSettings(db, teamId, plainSmtp(smtp.port));
    const ids = Array.from(
      { length: 10 },
      () => invoice(db, teamId, { customerId, issueDate: '2099-01-01', deliveryType: 'create_and_send' }).id,
    );
    expect(deliveryCounts(db, teamId)).toEqual({ queued: 10 });

    const run = () => spawn(FINOPS_BIN, ['invoices', 'run', '--data-dir', dataDir, '--lease-seconds', '1'], { stdio: 'pipe' });
    // First run: killed (SIGKILL) while the fourth email is being transmitted, before the server accepts it.
    const first = run();
    const exited = new Promise<NodeJS.Signals | null>((resolve) => first.once('exit', (_code, signal) => resolve(signal)));
    smtp.onMessage = (i) => {
      if (i !== 3) return 'accept';
      first.kill('SIGKILL');
      return 'hold';
    };
    expect(await exited).toBe('SIGKILL');
    expect(smtp.received).toHaveLength(3);
    const afterKill = deliveryCounts(db, teamId);
    expect(afterKill).toEqual({ queued: 6, sending: 1, sent: 3 });

    // The dead process's lease (1 s) runs out; a new run sends the rest, the interrupted one included.
    smtp.onMessage = undefined;
    await new Promise((r) => setTimeout(r, 1_100));
    const second = run();
    let out = '';
    second.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    expect(await new Promise((resolve) => second.once('exit', resolve))).toBe(0);
    expect(JSON.parse(out).emails).toEqual({ sent: 7, retried: 0, failed: 0, awaitingSync: 0 });

    expect(smtp.received).toHaveLength(10);
    const byMessageId = new Map<string, number>();
    for (const m of smtp.received) byMessageId.set(m.messageId!, (byMessageId.get(m.messageId!) ?? 0) + 1);
    expect(byMessageId.size).toBe(10);
    expect([...byMessageId.values()].every((n) => n === 1)).toBe(true);
    const fresh = openDatabase(dataDir);
    closers.push(() => fresh.close());
    expect(deliveryCounts(fresh, teamId)).toEqual({ sent: 10 });
    const rows = ids.flatMap((id) => listDeliveries(fresh, teamId, id));
    expect(new Set(rows.map((r) => r.message_id))).toEqual(new Set(byMessageId.keys()));
    // The interrupted one took two attempts; all others one.
    expect(rows.map((r) => r.attempts).sort()).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 2]);
  });
});
