/**
 * Hostile bank files over real HTTP (issue 33's figures, docs/decisions/0170): the OFX tag and the MT940 line that
 * froze the server for seconds are answered 422 at once, and `/v1/health` keeps answering meanwhile. The bench
 * `npm run bench -- abuse` measures the same against `finops serve`; this test holds looser bounds for CI.
 */
import { describe, expect, it } from 'vitest';
import { write } from '../../../src-main/store/write';
import { makeTestApi } from '../../helpers/api';

const FILES: [string, string, Buffer][] = [
  ['a 24-character OFX tag', 'a.ofx', Buffer.from(`<OFX><SIGNONMSGSRSV1><${'A'.repeat(24)}>x`)],
  ['a 40-character OFX tag', 'a.ofx', Buffer.from(`<OFX><SIGNONMSGSRSV1><${'A'.repeat(40)}>x`)],
  ['a 32,000-brace MT940 line', 'a.sta', Buffer.from(`{1:x}{2:${'{'.repeat(32_000)}\n:20:X\n:25:Y\n:60F:C260301EUR1,00\n`)],
  ['a 1 MB MT940 line', 'a.sta', Buffer.from(`:20:X\n:25:Y\n:60F:C260301EUR1,00\n:86:${'{'.repeat(1024 * 1024)}\n`)],
];

describe('hostile bank files over HTTP', () => {
  it('answers each at once with 422 while /v1/health keeps answering', async () => {
    const api = await makeTestApi({ rateLimitPerMinute: 1_000_000 });
    const token = api.key('Acme');
    const account = write(api.db, api.team('Acme').id, (w) =>
      w.insert('bank_account', { name: 'Giro', type: 'depository', currency: 'EUR', manual: 0 }),
    );
    const url = await api.listen();
    // The server's reader is up, as it is once it has read a file.
    await fetch(`${url}/v1/imports/uploads?bankAccountId=${account}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv', 'x-filename': 'a.csv' },
      body: 'Datum;Betrag\n01.03.2026;1,00\n',
    });
    for (const [what, name, body] of FILES) {
      let health = 0;
      let polling = true;
      const poll = (async () => {
        while (polling) {
          const t = performance.now();
          expect((await fetch(`${url}/v1/health`)).status).toBe(200);
          health = Math.max(health, performance.now() - t);
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      const started = performance.now();
      const res = await fetch(`${url}/v1/imports/uploads?bankAccountId=${account}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream', 'x-filename': name },
        body: new Uint8Array(body),
      });
      const ms = performance.now() - started;
      polling = false;
      await poll;
      expect(res.status, what).toBe(422);
      expect((await res.json()).message, what).toMatch(/cannot be imported/);
      expect(ms, what).toBeLessThan(1_000);
      expect(health, what).toBeLessThan(500);
    }
  }, 120_000);
});
