import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small HTTP proxy between a replica and its remote that misbehaves on purpose, by a seeded plan: it drops
 * requests before the remote sees them, loses answers after the remote committed, sends a request twice, delays,
 * answers bursts of 429 (with Retry-After) and 500s. Real sockets on loopback; the remote is a real server.
 */
export type Fault = 'pass' | 'drop' | 'lose-answer' | 'duplicate' | 'delay' | 'rate-limit' | 'server-error';

export interface FaultProxy {
  url: string;
  /** What happened to each request, in order (tests assert faults really occurred). */
  log: { method: string; path: string; fault: Fault }[];
  /** Decides each request's fault (the request's body as text, for plans aimed at one record); replace it to change the plan. */
  plan: (method: string, path: string, n: number, body: string) => Fault;
  /** Runs before a request is forwarded (a change made on the remote while a request is in flight). */
  before?: (method: string, path: string, body: string) => Promise<void>;
  close(): Promise<void>;
}

/** A seeded PRNG (mulberry32): the same seed, the same faults. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A plan that picks faults at random with the given weights (the rest pass). */
export function randomPlan(random: () => number, weights: Partial<Record<Fault, number>>): FaultProxy['plan'] {
  return () => {
    let x = random();
    for (const [fault, w] of Object.entries(weights) as [Fault, number][]) {
      if (x < w) return fault;
      x -= w;
    }
    return 'pass';
  };
}

function forward(
  target: URL,
  req: http.IncomingMessage,
  body: Buffer,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const out = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    out.on('error', reject);
    out.end(body);
  });
}

export async function faultProxy(remoteBaseUrl: string): Promise<FaultProxy> {
  const target = new URL(remoteBaseUrl);
  let n = 0;
  const proxy: FaultProxy = {
    url: '',
    log: [],
    plan: () => 'pass',
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const fault = proxy.plan(req.method ?? 'GET', req.url ?? '/', n++, body.toString());
      proxy.log.push({ method: req.method ?? 'GET', path: req.url ?? '/', fault });
      try {
        await proxy.before?.(req.method ?? 'GET', req.url ?? '/', body.toString());
        switch (fault) {
          case 'drop':
            res.socket?.destroy();
            return;
          case 'rate-limit':
            res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
            res.end(JSON.stringify({ error: 'Too Many Requests', message: 'slow down', retryAfterSeconds: 0 }));
            return;
          case 'server-error':
            res.writeHead(500, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ error: 'Internal Server Error', message: 'injected' }));
            return;
          case 'lose-answer':
            // The remote commits; the answer never arrives.
            await forward(target, req, body);
            res.socket?.destroy();
            return;
          case 'duplicate': {
            // The request arrives twice (a retransmission). Only for requests a client makes safe to repeat: a keyless
            // POST sent twice by the network makes two records on any server, whatever the client does.
            const safe = req.method !== 'POST' || req.headers['idempotency-key'] !== undefined;
            if (safe) await forward(target, req, body);
            const second = await forward(target, req, body);
            res.writeHead(second.status, second.headers);
            res.end(second.body);
            return;
          }
          case 'delay':
            await new Promise((r) => setTimeout(r, 30));
            break;
          default:
            break;
        }
        const answer = await forward(target, req, body);
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
      } catch {
        res.socket?.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${target.pathname}`;
  return proxy;
}
