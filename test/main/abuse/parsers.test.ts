/**
 * The fuzz and abuse suite of the parsers (docs/decisions/0170): every parser of the table in ./parsers.ts is fed
 * the inputs known to stall or blow up parsers of its kind and inputs generated from its own syntax (fast-check,
 * seeded: the same inputs on every run), through the parser sandbox as the product reads them. Each must be answered
 * — read, or refused with a message — within ANSWER_MS, with the process's memory grown by less than MEMORY_MB, and
 * the event loop free meanwhile.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Outcome, PARSERS } from './parsers';

const ANSWER_MS = 3_000;
const MEMORY_MB = 200;
/** The slowest the event loop may answer a timer while a parser works. */
const LOOP_MS = 250;
const SEED = 20_261_201;
const RUNS = 25;

let loopWorst = 0;
let last = performance.now();
let timer: NodeJS.Timeout | undefined;
beforeAll(() => {
  last = performance.now();
  timer = setInterval(() => {
    const now = performance.now();
    loopWorst = Math.max(loopWorst, now - last - 10);
    last = now;
  }, 10);
});
afterAll(() => clearInterval(timer));

/** The outcome, the time it took, and the event loop's worst delay meanwhile (making the input does not count). */
async function answered(
  read: (b: Buffer) => Promise<Outcome>,
  bytes: Buffer,
): Promise<{ outcome: Outcome; ms: number; loop: number }> {
  loopWorst = 0;
  last = performance.now();
  const started = last;
  const outcome = await read(bytes);
  return { outcome, ms: performance.now() - started, loop: loopWorst };
}

function clear(outcome: Outcome): void {
  expect(['read', 'refused']).toContain(outcome.kind);
  if (outcome.kind === 'refused') {
    expect(outcome.message.length).toBeGreaterThan(0);
    expect(outcome.message).not.toMatch(/\n\s+at /);
  }
}

describe.each(PARSERS.map((p, i) => [p.name, p, i] as const))('%s', (_name, row, index) => {
  beforeAll(async () => {
    // The reader is started, as a server's is once it has read a file: its start-up is not the input's time.
    await row.read(Buffer.from('x'));
  }, 60_000);

  it.each(row.pathological)(
    'answers %s in time, clearly, in bounded memory',
    async (_label, make) => {
      const bytes = await make();
      const before = process.memoryUsage().rss;
      const { outcome, ms } = await answered(row.read, bytes);
      clear(outcome);
      expect(ms).toBeLessThan(ANSWER_MS);
      expect((process.memoryUsage().rss - before) / 1024 / 1024).toBeLessThan(MEMORY_MB);
      expect(loopWorst).toBeLessThan(LOOP_MS);
    },
    60_000,
  );

  it(`answers ${RUNS} generated inputs in time, each read or refused`, async () => {
    await fc.assert(
      fc.asyncProperty(row.generated, async (bytes) => {
        const { outcome, ms, loop } = await answered(row.read, bytes);
        clear(outcome);
        expect(ms).toBeLessThan(ANSWER_MS);
        expect(loop).toBeLessThan(LOOP_MS);
      }),
      { seed: SEED + index, numRuns: RUNS, endOnFailure: true },
    );
  }, 180_000);
});
