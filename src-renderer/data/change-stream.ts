/**
 * Follows the server's change stream (`GET /app/changes/stream`, server-sent events) for as long as it runs, and
 * says which entities changed. Plain TypeScript: the React side is use-change-stream.ts.
 *
 * - Streams over the typed client (fetch), which can send the bearer token that `EventSource` cannot.
 * - Reconnects by itself: at once (with a little jitter) when the server ends the stream on purpose (its periodic
 *   re-authentication, a shutdown), with exponential back-off and jitter after a failure, and when nothing — not even
 *   a heartbeat — arrived for `idleTimeoutMs` (a connection that died silently).
 * - Resumes with Last-Event-ID, so changes made while it was away are replayed by the server.
 * - Calls `onResync` when it cannot know what it missed: on the first connection (changes made between a screen's
 *   first read and the stream opening), and when the server's position is behind the last id seen (another
 *   database behind the same address). The caller then refreshes everything it shows.
 */
import type { ApiClient, ChangeEvent } from '../../src-shared/api-client';

export type StreamStatus = 'connecting' | 'live' | 'retrying' | 'stopped';

export interface ChangeStreamOptions {
  client: Pick<ApiClient, 'stream'>;
  onChange(event: ChangeEvent): void;
  onResync(): void;
  onStatus?(status: StreamStatus, error?: unknown): void;
  /** First delay after a failure, doubled on each further failure up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Longest silence before the connection is taken for dead: above the server's 15 s heartbeat. */
  idleTimeoutMs?: number;
  random?: () => number;
}

export interface ChangeStream {
  stop(): void;
  /** The id of the last event seen (the position a reconnection resumes from). */
  readonly lastEventId: string | undefined;
}

export function followChanges(options: ChangeStreamOptions): ChangeStream {
  const initialDelay = options.initialDelayMs ?? 1000;
  const maxDelay = options.maxDelayMs ?? 30_000;
  const idleTimeout = options.idleTimeoutMs ?? 45_000;
  const random = options.random ?? Math.random;
  const stopper = new AbortController();
  let lastEventId: string | undefined;
  let current: AbortController | null = null;
  /** Failed attempts since the stream was last live: sets the back-off. */
  let failures = 0;

  const status = (s: StreamStatus, error?: unknown) => options.onStatus?.(s, error);

  async function connectOnce(): Promise<void> {
    const connection = new AbortController();
    current = connection;
    let idle: ReturnType<typeof setTimeout> | undefined;
    const alive = () => {
      clearTimeout(idle);
      idle = setTimeout(() => connection.abort(new Error('the change stream went silent')), idleTimeout);
    };
    try {
      alive();
      const stream = await options.client.stream('/app/changes/stream', { lastEventId, signal: connection.signal });
      for await (const item of stream) {
        alive();
        if (item.type !== 'event') continue;
        const { event, id, data } = item.message;
        if (event === 'ready') {
          const known = lastEventId === undefined ? undefined : Number(lastEventId);
          lastEventId = id;
          failures = 0;
          status('live');
          if (known === undefined || Number(id) < known) options.onResync();
        } else if (event === undefined) {
          lastEventId = id;
          options.onChange(JSON.parse(data) as ChangeEvent);
        }
      }
    } finally {
      clearTimeout(idle);
      current = null;
    }
  }

  async function run(): Promise<void> {
    while (!stopper.signal.aborted) {
      status(failures === 0 ? 'connecting' : 'retrying');
      let delay: number;
      try {
        await connectOnce();
        // The server ended the stream on purpose: come back at once, spread a little so clients do not stampede.
        delay = 50 + random() * 200;
      } catch (err) {
        if (stopper.signal.aborted) break;
        failures += 1;
        status('retrying', err);
        const base = Math.min(maxDelay, initialDelay * 2 ** (failures - 1));
        delay = base / 2 + (random() * base) / 2;
      }
      await sleep(delay, stopper.signal);
    }
    status('stopped');
  }

  void run();
  return {
    stop() {
      stopper.abort();
      current?.abort();
    },
    get lastEventId() {
      return lastEventId;
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}
