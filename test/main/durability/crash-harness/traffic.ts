import type { Acknowledged, Unanswered, WriteLog, Writer } from './acknowledged';
import { type Answer, type HarnessRequest, NoAnswer, send } from './http';
import type { Random } from './seeded-random';
import type { SeededTeam } from './team';

/**
 * The traffic drivers: one loop per writer, each sending its kind of write one after another until the server dies
 * under it (or the round ends), recording what was acknowledged. Half the keyed writers' requests carry an
 * Idempotency-Key (seeded), so that both kinds are in flight at each kill.
 */
export interface Round {
  base: string;
  team: SeededTeam;
  round: number;
  random: Random;
  log: WriteLog;
  /** True once the server was killed: the loops finish their request in flight and stop. */
  stopped: () => boolean;
}

/** Loops per writer: the customers' group commit wants company; an import is heavier, one at a time. */
const LOOPS: Record<Writer, number> = {
  customer: 3,
  tag: 1,
  transaction: 2,
  'tracker-entry': 1,
  invoice: 1,
  'invoice-send': 0, // sent by the invoice loop after each create
  import: 1,
  'workflow-run': 1,
};

let counter = 0;
/** A value unique in the whole run (the process), tagged with the round for the report. */
function unique(round: number, what: string): string {
  counter++;
  return `${what} r${round}.${counter}`;
}

type Step = { writer: Writer; value: string; request: HarnessRequest; retryable: boolean };

/** Sends one step: its answer, or undefined when the server died (the step is then recorded as unanswered). */
async function step(r: Round, s: Step, expected: number): Promise<Answer | undefined> {
  try {
    const answer = await send(r.base, r.team.key, s.request);
    if (answer.status !== expected) {
      r.log.unexpectedAnswer(
        `${s.writer} ${s.request.method} ${s.request.path}: ${answer.status} ${JSON.stringify(answer.body)}`,
      );
      return undefined;
    }
    return answer;
  } catch (err) {
    if (!(err instanceof NoAnswer)) throw err;
    const u: Unanswered = { writer: s.writer, value: s.value, round: r.round, request: s.request };
    if (s.retryable) r.log.toRetry.push(u);
    else r.log.unansweredUnkeyed++;
    throw err;
  }
}

function ack(r: Round, s: Step, id: unknown): void {
  if (typeof id !== 'string') throw new Error(`${s.writer}: no id in the answer`);
  const a: Acknowledged = { writer: s.writer, id, value: s.value, round: r.round, request: s.request };
  r.log.ack(a);
}

function keyed(r: Round, what: string): string | undefined {
  return r.random.chance(0.5) ? unique(r.round, `key ${what}`).replaceAll(' ', '-') : undefined;
}

/** A day of the past month on the test clock, so no write is dated in the future. */
function pastDay(r: Round): string {
  const d = new Date(Date.now() - r.random.int(2, 30) * 86_400_000);
  return d.toISOString().slice(0, 10);
}

/** One write per call, of each writer. Each returns when its write was answered (or throws NoAnswer). */
const writes: Partial<Record<Writer, (r: Round) => Promise<void>>> = {
  async customer(r) {
    const name = unique(r.round, 'Harness customer');
    const s: Step = {
      writer: 'customer',
      value: name,
      request: { method: 'POST', path: '/v1/customers', body: { name, note: 'crash harness' }, idempotencyKey: keyed(r, 'c') },
      retryable: false,
    };
    s.retryable = s.request.idempotencyKey !== undefined;
    const a = await step(r, s, 201);
    if (a) ack(r, s, a.body.id);
  },

  async tag(r) {
    const name = unique(r.round, 'harness tag');
    const s: Step = {
      writer: 'tag',
      value: name,
      request: { method: 'POST', path: '/v1/tags', body: { name } },
      retryable: false,
    };
    const a = await step(r, s, 201);
    if (a) ack(r, s, a.body.id);
  },

  async transaction(r) {
    const name = unique(r.round, 'Harness line');
    const minor = -r.random.int(1, 999_999);
    const s: Step = {
      writer: 'transaction',
      value: `${name}|${minor}`,
      request: {
        method: 'POST',
        path: '/v1/transactions',
        body: { name, amount: minor / 100, currency: 'EUR', date: pastDay(r), bankAccountId: r.team.bankAccountId },
        idempotencyKey: keyed(r, 't'),
      },
      retryable: false,
    };
    s.retryable = s.request.idempotencyKey !== undefined;
    const a = await step(r, s, 200);
    if (a) ack(r, s, a.body.id);
  },

  async 'tracker-entry'(r) {
    const description = unique(r.round, 'harness hours');
    const s: Step = {
      writer: 'tracker-entry',
      value: description,
      request: {
        method: 'POST',
        path: '/v1/tracker-entries',
        body: {
          projectId: r.team.projectId,
          start: `${pastDay(r)}T09:00:00.000Z`,
          duration: r.random.int(60, 8 * 3600),
          description,
        },
        idempotencyKey: keyed(r, 'e'),
      },
      retryable: false,
    };
    s.retryable = s.request.idempotencyKey !== undefined;
    const a = await step(r, s, 200);
    if (a) ack(r, s, a.body.id);
  },

  // Create, then send: the email queued by an acknowledged send must go out once, whatever the kills.
  async invoice(r) {
    const note = unique(r.round, 'harness invoice');
    const create: Step = {
      writer: 'invoice',
      value: note,
      request: {
        method: 'POST',
        path: '/v1/invoices',
        body: {
          customerId: r.team.customerId,
          note,
          lineItems: [{ name: 'Harness work', quantity: 1, price: r.random.int(100, 99_999) / 100 }],
        },
        idempotencyKey: keyed(r, 'i'),
      },
      retryable: false,
    };
    create.retryable = create.request.idempotencyKey !== undefined;
    const created = await step(r, create, 201);
    if (!created) return;
    ack(r, create, created.body.id);
    const sendKey = `send ${note}`;
    const sendStep: Step = {
      writer: 'invoice-send',
      value: sendKey,
      request: {
        method: 'POST',
        path: `/v1/invoices/${String(created.body.id)}/send`,
        body: { idempotencyKey: sendKey },
        idempotencyKey: keyed(r, 's'),
      },
      // The body's key makes a second send of it queue nothing more, with or without the header.
      retryable: true,
    };
    const sent = await step(r, sendStep, 200);
    if (sent) ack(r, sendStep, sent.body.id);
  },

  // Upload a small bank file (three lines no other file has), then commit it as a batch.
  async import(r) {
    const mark = unique(r.round, 'Harness import');
    const lines = [0, 1, 2].map((i) => `${pastDay(r)},${mark} line ${i},-${r.random.int(1, 9999)}.${r.random.int(10, 99)}`);
    const csv = `Date,Description,Amount\n${lines.join('\n')}\n`;
    const upload: Step = {
      writer: 'import',
      value: mark,
      request: {
        method: 'POST',
        path: `/v1/imports/uploads?bankAccountId=${r.team.bankAccountId}`,
        body: csv,
        contentType: 'text/csv',
      },
      retryable: false,
    };
    const preview = await step(r, upload, 201);
    if (!preview) return;
    const commit: Step = {
      writer: 'import',
      // As on-disk.ts reads a batch back: its lines' mark, the lines it counts, the lines it holds.
      value: `${mark}|3|3`,
      request: { method: 'POST', path: `/v1/imports/uploads/${String(preview.body.uploadId)}/commit`, body: {} },
      // A second commit of one upload is refused as already imported: safe to send again.
      retryable: true,
    };
    const committed = await step(r, commit, 201);
    if (!committed) return;
    const batch = committed.body.batch as { id: string; counts: { created: number } };
    if (batch.counts.created !== 3) r.log.unexpectedAnswer(`import ${mark}: created ${batch.counts.created} of 3 lines`);
    ack(r, commit, batch.id);
  },

  async 'workflow-run'(r) {
    const mark = unique(r.round, 'run').replaceAll(' ', '-');
    const s: Step = {
      writer: 'workflow-run',
      value: mark,
      request: {
        method: 'POST',
        path: `/v1/workflows/${r.team.workflowId}/execute`,
        body: { triggerData: { mark }, idempotencyKey: mark },
      },
      // The body's key answers the existing execution to a second start.
      retryable: true,
    };
    const a = await step(r, s, 200);
    if (a) ack(r, s, a.body.executionId);
  },
};

/**
 * One import and one invoice sent, before the round's traffic and its kill timer: the first upload of a process
 * starts its parser sandbox and the first send loads the PDF renderer, each a second or more on a loaded machine,
 * which would otherwise keep those writers from ever being acknowledged before the kill.
 */
export async function warmUp(r: Round): Promise<void> {
  await writes.import?.(r);
  await writes.invoice?.(r);
}

/** Runs every writer's loops until `r.stopped()` or the server dies; resolves when all have stopped. */
export async function runTraffic(r: Round): Promise<void> {
  const loops: Promise<void>[] = [];
  for (const [writer, write] of Object.entries(writes) as [Writer, (r: Round) => Promise<void>][]) {
    for (let i = 0; i < LOOPS[writer]; i++) {
      loops.push(
        (async () => {
          try {
            while (!r.stopped()) await write(r);
          } catch (err) {
            if (!(err instanceof NoAnswer)) throw err;
          }
        })(),
      );
    }
  }
  await Promise.all(loops);
}
