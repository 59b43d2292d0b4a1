/**
 * No client mistake is a 500: every operation of the OpenAPI document gets a few hundred malformed requests —
 * odd path ids, random query strings, random JSON (and non-JSON) bodies — and must answer with a 4xx (or a 2xx
 * where the input happens to be acceptable) and the Error payload, never a 500 and never a stack trace.
 * Deterministic: the generator is seeded.
 */
import { describe, expect, it } from 'vitest';
import { makeTestApi } from '../../helpers/api';

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRINGS = [
  '',
  ' ',
  'a',
  'ü',
  '"',
  "'",
  '\\',
  '%',
  '%00',
  '\u0000',
  '<script>',
  '*',
  'AND(',
  'NEAR/2',
  '1e309',
  '-1',
  '0',
  'null',
  'true',
  '💶',
  'x'.repeat(5000),
  '../../etc/passwd',
  'DE',
  'xx',
  '0088:123',
  'a@b.c',
  '2025-01-01',
  '2025-12-31',
];

function randomValue(rand: () => number, depth = 0): unknown {
  const pick = Math.floor(rand() * (depth > 2 ? 6 : 9));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return rand() < 0.5;
    case 2:
      return [0, -1, 1.5, 1e308, -0, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER][Math.floor(rand() * 7)];
    case 3:
    case 4:
    case 5:
      return STRINGS[Math.floor(rand() * STRINGS.length)];
    case 6:
      return Array.from({ length: Math.floor(rand() * 3) }, () => randomValue(rand, depth + 1));
    default: {
      const keys = [
        'name',
        'email',
        'tags',
        'countryCode',
        'id',
        'note',
        'peppolId',
        'billingEmail',
        'website',
        '__proto__',
        'constructor',
        'from',
        'to',
        'horizonMonths',
        'drivers',
        'kind',
        'pct',
      ];
      // Own properties even for "__proto__" (what JSON.parse on the server produces), not a prototype change.
      const o: Record<string, unknown> = Object.create(null);
      for (let i = 0; i < 1 + Math.floor(rand() * 4); i++)
        o[keys[Math.floor(rand() * keys.length)]!] = randomValue(rand, depth + 1);
      return o;
    }
  }
}

function asText(v: unknown): string {
  return typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
}

describe('no 500 for client mistakes', () => {
  it('survives malformed requests to every operation', { timeout: 180_000 }, async () => {
    const api = await makeTestApi({ rateLimitPerMinute: 1_000_000 });
    const token = api.key('Fuzz');
    const doc = (await api.call('GET', '/v1/openapi.json')).json() as { paths: Record<string, Record<string, unknown>> };
    const rand = prng(20261122);
    let requests = 0;
    const statuses = new Map<number, number>();
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods)) {
        for (let i = 0; i < 60; i++) {
          const id = STRINGS[Math.floor(rand() * STRINGS.length)]!;
          const url =
            path.replace('{id}', encodeURIComponent(id) || 'x') +
            `?${[
              'q',
              'sort',
              'cursor',
              'pageSize',
              'tags',
              'countries',
              'tab',
              'sort',
              'from',
              'to',
              'horizonMonths',
              'currency',
              'ids',
            ]
              .filter(() => rand() < 0.4)
              .map((k) => `${k}=${encodeURIComponent(asText(randomValue(rand)))}`)
              .join('&')}`;
          const raw = rand() < 0.15;
          const body = method === 'get' || method === 'delete' ? undefined : raw ? '{"name": tru' : randomValue(rand);
          const res = await api.call(method.toUpperCase(), url, {
            token,
            body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
            headers: raw ? { 'content-type': rand() < 0.5 ? 'application/json' : 'text/plain' } : {},
          });
          requests++;
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          expect(
            res.statusCode,
            `${method.toUpperCase()} ${url} ${asText(body).slice(0, 200)} → ${res.body.slice(0, 300)}`,
          ).toBeLessThan(500);
          if (res.statusCode >= 400 && res.headers['content-type']?.toString().includes('json')) {
            expect(res.json()).toHaveProperty('error');
            expect(res.body).not.toMatch(/\bat .+:\d+:\d+/);
          }
        }
      }
    }
    expect(requests).toBeGreaterThan(300);
    // The inputs reach validation and handlers, not just the router: several kinds of answer occur.
    for (const s of [200, 404, 422]) expect(statuses.get(s), `status ${s} seen`).toBeGreaterThan(0);
  });
});
