import type { HarnessRequest } from './http';

/**
 * What the harness holds the server to: every write it acknowledged (2xx), with the id it answered and the value
 * it wrote, and every request that was in flight when the server died. Each writer's value is written so that it
 * is unique in the run, so "present with its value" and "not there twice" are both checkable on disk.
 */
export const WRITERS = [
  'customer',
  'tag',
  'transaction',
  'tracker-entry',
  'invoice',
  'invoice-send',
  'import',
  'workflow-run',
] as const;
export type Writer = (typeof WRITERS)[number];

export interface Acknowledged {
  writer: Writer;
  /** The record answered: the invoice for a send, the batch for an import commit, the execution for a run. */
  id: string;
  /** What the write put there, as on-disk.ts reads it back (see valueOnDisk). */
  value: string;
  round: number;
  request: HarnessRequest;
}

/** A request that got no answer: the server was killed while it ran. */
export interface Unanswered {
  writer: Writer;
  /** The unique value it would write. */
  value: string;
  round: number;
  request: HarnessRequest;
  /** Set once it was sent again (a held key is sent again at each restart until its lease lapses). */
  sentAgain?: boolean;
}

export class WriteLog {
  readonly acknowledged: Acknowledged[] = [];
  /** Unanswered requests that are safe to send again (an Idempotency-Key, a body key, or a commit of one upload). */
  readonly toRetry: Unanswered[] = [];
  /** Retries answered "carried out, its answer lost": the killed request had committed; it must be there once. */
  readonly carriedOut: Unanswered[] = [];
  /** Unanswered requests without a key: they may or may not have committed, and are not sent again. */
  unansweredUnkeyed = 0;
  /** Answers no request should get (5xx, an unexpected 4xx): each a finding. */
  readonly unexpected: string[] = [];

  /** Keeps the first answers of each kind in full; a writer that keeps failing the same way is counted. */
  unexpectedAnswer(what: string): void {
    this.unexpectedCount++;
    if (this.unexpected.length < 20) this.unexpected.push(what);
  }

  unexpectedCount = 0;

  ack(a: Acknowledged): void {
    this.acknowledged.push(a);
  }

  byWriter(writer: Writer): Acknowledged[] {
    return this.acknowledged.filter((a) => a.writer === writer);
  }
}
