import { afterAll, describe, expect, it } from 'vitest';
import { ParserFailed, ParserPool, ParserStopped } from '../../../src-main/sandbox/pool';

/**
 * The parser sandbox's pool (src-main/sandbox/pool.ts) with its real worker and real parsers: answers, errors, the
 * time and memory limits (a worker stopped, the next job served by a new one), and the event loop free meanwhile.
 */
const pools: ParserPool[] = [];
const pool = (options?: ConstructorParameters<typeof ParserPool>[0]) => {
  const p = new ParserPool(options);
  pools.push(p);
  return p;
};
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

/** A valid CSV of `rows` rows: big enough to take a while, nothing pathological. */
function bigCsv(rows: number): Uint8Array {
  const lines = ['Buchungstag;Auftraggeber / Begünstigter;Verwendungszweck;Betrag (EUR)'];
  for (let i = 0; i < rows; i++)
    lines.push(
      `0${1 + (i % 9)}.03.2026;Lieferant ${i % 500} GmbH;Rechnung RE-${i};-${i % 1000},${String(i % 100).padStart(2, '0')}`,
    );
  return Buffer.from(lines.join('\n'));
}

const small = Buffer.from('Datum;Betrag;Text\n01.03.2026;-1,00;Kaffee\n');

describe('the parser pool', () => {
  it('runs a job in a worker and answers with its result; a job that throws is ParserFailed with its message', async () => {
    const p = pool();
    const r = await p.run('bankFile', { bytes: small, options: { currency: 'EUR' } });
    expect(r.file.rows.map((x) => x.amountMinor)).toEqual([-100]);
    const failed = await p.run('receipt', { text: 42 as unknown as string }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ParserFailed);
    expect((failed as ParserFailed).errorName).toBe('TypeError');
    expect(p.workers).toBe(1);
  }, 60_000);

  it('stops a job past its time limit, says so, and serves the next job with a new worker', async () => {
    const p = pool({ size: 1 });
    await p.run('bankFile', { bytes: small, options: { currency: 'EUR' } });
    const started = performance.now();
    const stopped = await p
      .run('bankFile', { bytes: bigCsv(200_000), options: { currency: 'EUR' } }, { timeMs: 200 })
      .catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(stopped).toBeInstanceOf(ParserStopped);
    expect(stopped).toMatchObject({ reason: 'time', job: 'bankFile', message: 'reading it took longer than 200 ms' });
    const next = await p.run('bankFile', { bytes: small, options: { currency: 'EUR' } });
    expect(next.file.rows).toHaveLength(1);
  }, 60_000);

  it('stops a job past its memory limit (sampled), and one past the worker’s heap cap (V8’s own stop)', async () => {
    const p = pool({ size: 1 });
    const sampled = await p
      .run('bankFile', { bytes: bigCsv(200_000), options: { currency: 'EUR' } }, { memoryMb: 64 })
      .catch((e: unknown) => e);
    expect(sampled).toMatchObject({ name: 'ParserStopped', reason: 'memory', message: 'reading it needed more than 64 MB' });
    const capped = pool({ size: 1, heapMb: 48 });
    const v8stop = await capped
      .run('bankFile', { bytes: bigCsv(300_000), options: { currency: 'EUR' } })
      .catch((e: unknown) => e);
    expect(v8stop).toMatchObject({ name: 'ParserStopped', reason: 'memory' });
    expect(await capped.run('bankFile', { bytes: small, options: { currency: 'EUR' } })).toMatchObject({ size: small.length });
  }, 120_000);

  it('keeps the event loop free while a parse runs: timers fire on time', async () => {
    const p = pool({ size: 1 });
    await p.run('bankFile', { bytes: small, options: { currency: 'EUR' } });
    let last = performance.now();
    let worst = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 10);
    const r = await p.run('bankFile', { bytes: bigCsv(60_000), options: { currency: 'EUR' } });
    clearInterval(timer);
    expect(r.file.rows).toHaveLength(60_000);
    // In this process the same parse blocks the loop for its whole length (a second or more here).
    expect(worst).toBeLessThan(250);
  }, 60_000);

  it('queues jobs beyond its workers and answers each; a closed pool refuses', async () => {
    const p = pool({ size: 2 });
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        p.run('bankFile', { bytes: Buffer.from(`Datum;Betrag\n01.03.2026;${i},00\n`), options: { currency: 'EUR' } }),
      ),
    );
    expect(answers.map((a) => a.file.rows[0]?.amountMinor)).toEqual([0, 100, 200, 300, 400, 500]);
    expect(p.workers).toBeLessThanOrEqual(2);
    await p.close();
    await expect(p.run('bankFile', { bytes: small, options: { currency: 'EUR' } })).rejects.toThrow(/closed/);
  }, 60_000);
});
