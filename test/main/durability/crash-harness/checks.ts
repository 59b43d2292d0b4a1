import { runCli } from '../../../helpers/cli';
import type { TestSmtp } from '../../../helpers/smtp';
import { type Acknowledged, WRITERS, type WriteLog, type Writer } from './acknowledged';
import { get, NoAnswer, send } from './http';
import type { DiskState } from './on-disk';

/**
 * The checks of the harness, each returning findings (empty: held). After a kill, on the file the dead server left:
 * whole, every acknowledged write there with its value, no value twice, the ledger consistent. After the restart,
 * over the API: the last round's writes read back, keyed requests replayed, and the requests that were in flight sent
 * again with their keys. At the end: every queued email sent once, every run done with one notification.
 */

export function checkDisk(log: WriteLog, disk: DiskState, when: string): string[] {
  const findings: string[] = [];
  if (disk.integrity !== 'ok') findings.push(`${when}: integrity_check says ${disk.integrity}`);
  for (const a of log.acknowledged) {
    const stored = disk.values[a.writer].get(a.id);
    if (stored !== a.value)
      findings.push(`${when}: lost ${a.writer} ${a.id} "${a.value}" (round ${a.round}): on disk ${stored ?? 'absent'}`);
  }
  for (const writer of WRITERS) {
    for (const [value, n] of disk.copies[writer]) if (n > 1) findings.push(`${when}: ${writer} "${value}" is there ${n} times`);
  }
  for (const [run, n] of disk.notificationsPerRun) if (n > 1) findings.push(`${when}: run ${run} notified ${n} times`);
  // A request whose answer was lost after its commit: its change is there, once.
  for (const u of log.carriedOut) {
    const n = disk.copies[u.writer].get(u.value) ?? 0;
    if (n !== 1) findings.push(`${when}: ${u.writer} "${u.value}", carried out by a killed request, is there ${n} times`);
  }
  return findings;
}

/** `finops ledger check` on the data dir: balances, base amounts, review states and the daily roll-up recomputed. */
export function checkLedger(dataDir: string, when: string): string[] {
  const r = runCli(['ledger', 'check', '--data-dir', dataDir]);
  return r.status === 0 ? [] : [`${when}: finops ledger check exited ${r.status}: ${(r.stdout + r.stderr).trim().slice(0, 500)}`];
}

/** Where each writer's record reads back over the API, and its value there as the traffic wrote it. */
const readBack: Record<Writer, { path: (id: string) => string; value: (body: Record<string, unknown>) => string }> = {
  customer: { path: (id) => `/v1/customers/${id}`, value: (b) => String(b.name) },
  tag: { path: (id) => `/v1/tags/${id}`, value: (b) => String(b.name) },
  transaction: { path: (id) => `/v1/transactions/${id}`, value: (b) => `${b.name}|${Math.round(Number(b.amount) * 100)}` },
  'tracker-entry': { path: (id) => `/v1/tracker-entries/${id}`, value: (b) => String(b.description) },
  invoice: { path: (id) => `/v1/invoices/${id}`, value: (b) => String(b.note) },
  // The send's key is not in the API: an invoice email of it is.
  'invoice-send': {
    path: (id) => `/v1/invoices/${id}/deliveries`,
    value: (b) => String((b.data as { kind: string }[]).filter((d) => d.kind === 'invoice').length),
  },
  import: {
    path: (id) => `/v1/imports/batches/${id}`,
    value: (b) => `${b.status}|${(b.counts as { created: number }).created}`,
  },
  'workflow-run': {
    path: (id) => `/v1/workflows/runs/${id}`,
    value: (b) => String(b.executionId),
  },
};

function expectedOverApi(a: Acknowledged): string {
  if (a.writer === 'invoice-send') return '1';
  if (a.writer === 'import') return 'committed|3';
  if (a.writer === 'workflow-run') return a.id;
  return a.value;
}

/** At most this many writes of a round are read back and replayed over the API after its restart. */
const API_SAMPLE = 60;

export interface RestartCounts {
  readBack: number;
  replayed: number;
  retried: number;
  /** Retries answered 409: the killed request's Idempotency-Key marker holds until its lease lapses. */
  held: number;
}

/**
 * After a restart: reads back writes acknowledged in `round` (a sample), replays those sent with a key (the
 * same answer, marked replayed), and sends again every request that was in flight at a kill; a retry answered is
 * acknowledged from then on, one still held stays queued for the next restart.
 */
export async function checkAfterRestart(
  base: string,
  key: string,
  log: WriteLog,
  round: number,
  counts: RestartCounts,
): Promise<string[]> {
  const findings: string[] = [];
  const when = `after restart ${round}`;
  // Every write is checked on disk after each kill; over the API, an even sample of the round's (the reads run
  // beside the next round's traffic, which must not outgrow them).
  const ofRound = log.acknowledged.filter((x) => x.round === round);
  const stride = Math.max(1, Math.ceil(ofRound.length / API_SAMPLE));
  for (const a of ofRound.filter((_, i) => i % stride === 0)) {
    const r = await get(base, key, readBack[a.writer].path(a.id));
    counts.readBack++;
    const value = r.status === 200 ? readBack[a.writer].value(r.body) : `HTTP ${r.status}`;
    if (value !== expectedOverApi(a))
      findings.push(`${when}: ${a.writer} ${a.id} reads "${value}", wrote "${expectedOverApi(a)}"`);
    // A header key replays the stored answer; a body key (a send's, a run's) answers the same record again.
    const bodyKeyed = a.writer === 'invoice-send' || a.writer === 'workflow-run';
    if (!a.request.idempotencyKey && !bodyKeyed) continue;
    const again = await send(base, key, a.request);
    counts.replayed++;
    const id = again.body.executionId ?? again.body.id;
    if ((a.request.idempotencyKey && !again.replayed) || id !== a.id) {
      findings.push(
        `${when}: replay of ${a.writer} key ${a.request.idempotencyKey} answered ${again.status} ${String(id)} (replayed: ${again.replayed}), first ${a.id}`,
      );
    }
  }
  for (const u of log.toRetry.splice(0)) {
    let r: Awaited<ReturnType<typeof send>>;
    try {
      r = await send(base, key, u.request);
    } catch (err) {
      if (err instanceof NoAnswer) findings.push(`${when}: retry of ${u.writer} got no answer from a running server`);
      else throw err;
      continue;
    }
    const first = !u.sentAgain;
    u.sentAgain = true;
    if (first) counts.retried++;
    if (r.status === 409 && u.writer === 'import' && /already imported/.test(String(r.body.message))) continue;
    // Killed after its commit and before its answer was stored: the guard refuses to run it twice (0189).
    if (r.status === 409 && u.request.idempotencyKey && /was carried out/.test(String(r.body.message))) {
      log.carriedOut.push(u);
      continue;
    }
    if (r.status === 409 && u.request.idempotencyKey && /still running/.test(String(r.body.message))) {
      if (first) counts.held++;
      log.toRetry.push(u);
      continue;
    }
    if (r.status >= 200 && r.status < 300) {
      const id = u.writer === 'import' ? (r.body.batch as { id: string }).id : (r.body.executionId ?? r.body.id);
      log.ack({ writer: u.writer, id: String(id), value: u.value, round, request: u.request });
      continue;
    }
    findings.push(`${when}: retry of ${u.writer} ${u.request.path} answered ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  }
  return findings;
}

/**
 * Waits until every acknowledged send's email went out (unless a remote relays them) and every acknowledged run
 * finished, or the time is up.
 */
export async function waitForQueues(
  base: string,
  key: string,
  log: WriteLog,
  timeoutMs: number,
  { emails }: { emails: boolean },
): Promise<string[]> {
  const end = Date.now() + timeoutMs;
  let pending: string[] = [];
  for (;;) {
    pending = [];
    for (const a of emails ? log.byWriter('invoice-send') : []) {
      const r = await get(base, key, `/v1/invoices/${a.id}/deliveries`);
      const states = (r.body.data as { kind: string; state: string }[]).filter((d) => d.kind === 'invoice').map((d) => d.state);
      if (states.join() !== 'sent') pending.push(`invoice ${a.id} email ${states.join() || 'absent'}`);
    }
    for (const a of log.byWriter('workflow-run')) {
      const r = await get(base, key, `/v1/workflows/runs/${a.id}`);
      if (r.body.status !== 'completed') pending.push(`run ${a.id} ${String(r.body.status)}`);
    }
    if (pending.length === 0 || Date.now() > end) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return pending.map((p) => `at the end, still not done: ${p}`);
}

/**
 * Emails at the sink, by the delivery id each carries (X-Finops-Delivery). Every acknowledged send arrived; one
 * arrived twice only when a kill fell between the sink's 250 and the sender's commit of it (the delivery was still
 * 'sending' on disk with its email already at the sink): SMTP has no way to ask whether a message arrived, so that
 * one is at-least-once by design (docs/decisions/0074) and is reported, not failed.
 */
export function checkEmails(
  smtp: TestSmtp,
  log: WriteLog,
  disk: DiskState,
  inFlightAtKill: Set<string>,
): {
  findings: string[];
  sent: number;
  resentAfterKill: number;
} {
  const findings: string[] = [];
  const perDelivery = new Map<string, number>();
  for (const m of smtp.received) {
    const id = /^X-Finops-Delivery:\s*(\S+)/im.exec(m.raw)?.[1] ?? 'none';
    perDelivery.set(id, (perDelivery.get(id) ?? 0) + 1);
  }
  const keyToDelivery = new Map([...disk.deliveries].map(([id, d]) => [d.sendKey, id]));
  for (const a of log.byWriter('invoice-send')) {
    const delivery = keyToDelivery.get(a.value);
    if (!delivery || !perDelivery.has(delivery)) findings.push(`email of the send "${a.value}" never arrived`);
  }
  let resentAfterKill = 0;
  for (const [id, n] of perDelivery) {
    if (n === 1) continue;
    if (n === 2 && inFlightAtKill.has(id)) resentAfterKill++;
    else findings.push(`delivery ${id} arrived ${n} times`);
  }
  return { findings, sent: smtp.received.length, resentAfterKill };
}

/** Deliveries the kill caught between the sink's 250 and the sender's commit (see checkEmails). */
export function inFlightEmails(smtp: TestSmtp, disk: DiskState): string[] {
  const arrived = new Set(smtp.received.map((m) => /^X-Finops-Delivery:\s*(\S+)/im.exec(m.raw)?.[1]));
  return [...disk.deliveries].filter(([id, d]) => d.state === 'sending' && arrived.has(id)).map(([id]) => id);
}

/** Every acknowledged run finished with exactly one notification (its notify step's effect, once per key). */
export function checkRuns(log: WriteLog, disk: DiskState): string[] {
  return log
    .byWriter('workflow-run')
    .filter((a) => disk.runStatus.get(a.id) !== 'completed' || disk.notificationsPerRun.get(a.id) !== 1)
    .map((a) => `run ${a.id}: ${disk.runStatus.get(a.id) ?? 'absent'}, ${disk.notificationsPerRun.get(a.id) ?? 0} notifications`);
}
