/**
 * A write that finds the database held by another process past the busy timeout is answered 503 with Retry-After,
 * not 500: nothing was saved, and a retry once the other process is done succeeds.
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/store/db';
import { makeTestApi } from '../../helpers/api';

describe('a busy database', () => {
  it('answers a write 503 with Retry-After while another connection holds the write lock, then takes the retry', {
    timeout: 60_000,
  }, async () => {
    const api = await makeTestApi();
    const key = api.key('Acme');
    const other = openDatabase(api.dataDir);
    try {
      other.exec('BEGIN IMMEDIATE');
      const held = await api.call('POST', '/v1/customers', { token: key, body: { name: 'Waits GmbH' } });
      expect(held.statusCode).toBe(503);
      expect(held.headers['retry-after']).toBe('1');
      const body = JSON.parse(held.body);
      expect(body).toMatchObject({ error: 'Service Unavailable', message: expect.stringMatching(/busy/) });
      expect(body.requestId).toBeTruthy();
      other.exec('COMMIT');
      const retried = await api.call('POST', '/v1/customers', { token: key, body: { name: 'Waits GmbH' } });
      expect(retried.statusCode).toBe(201);
      const list = JSON.parse((await api.call('GET', '/v1/customers', { token: key })).body);
      expect(list.data.map((c: { name: string }) => c.name)).toEqual(['Waits GmbH']);
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    }
  });
});
