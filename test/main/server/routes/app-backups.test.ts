/**
 * The app's backup routes (/app/backups) over a real data dir: status, settings, back up now, and restore with its
 * confirmation into the running server — the data goes back to the backup's, the server keeps answering, a cached
 * read does not outlive the restore, and a credential made after the backup no longer works. Refused (403) on a
 * data dir of several teams and to a credential without team administration.
 */
import { describe, expect, it } from 'vitest';
import { makeTestApi } from '../../../helpers/api';

describe('/app/backups', () => {
  it('backs up now and restores a backup into the running server after a confirmation', async () => {
    const api = await makeTestApi({ dataDir: undefined });
    const key = api.key('Solo');
    const create = (name: string) => api.call('POST', '/v1/customers', { token: key, body: { name } });
    expect((await create('Kept')).statusCode).toBe(201);

    const now = await api.call('POST', '/app/backups', { token: key });
    expect(now.statusCode, now.body).toBe(200);
    const status = now.json();
    expect(status.lastBackup).toMatchObject({ trigger: 'manual', state: 'done' });
    expect(status.backups).toHaveLength(1);
    const name = status.backups[0].name as string;
    expect(status.settings.folder).toBe(`${api.dataDir}/backups`);

    expect((await create('Later')).statusCode).toBe(201);
    const listed = await api.call('GET', '/v1/customers', { token: key });
    expect(
      listed
        .json()
        .data.map((c: { name: string }) => c.name)
        .sort(),
    ).toEqual(['Kept', 'Later']);
    const laterKey = api.key('Solo');

    const unconfirmed = await api.call('POST', '/app/backups/restore', { token: key, body: { name } });
    expect(unconfirmed.statusCode).toBe(422);
    const unknown = await api.call('POST', '/app/backups/restore', {
      token: key,
      body: { name: 'finops-2026-01-01T00-00-00-000Z-manual-abcd.tar.gz', confirm: 'restore' },
    });
    expect(unknown.statusCode).toBe(404);

    const restored = await api.call('POST', '/app/backups/restore', { token: key, body: { name, confirm: 'restore' } });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().safetyBackup).toMatch(/-restore-/);
    const after = await api.call('GET', '/v1/customers', { token: key });
    expect(after.statusCode).toBe(200);
    expect(after.json().data.map((c: { name: string }) => c.name)).toEqual(['Kept']);
    // The key minted after the backup is not in the restored data.
    expect((await api.call('GET', '/v1/customers', { token: laterKey })).statusCode).toBe(401);
    // Writes go on after the restore.
    expect((await create('After')).statusCode).toBe(201);
    const runs = await api.call('GET', '/app/backups', { token: key });
    expect(
      runs
        .json()
        .backups.map((b: { trigger: string }) => b.trigger)
        .sort(),
    ).toEqual(['manual', 'restore']);
  });

  it('changes the schedule, and is refused on a data dir of several teams and without administration', async () => {
    const api = await makeTestApi();
    const key = api.key('One');
    const put = await api.call('PUT', '/app/backups/settings', { token: key, body: { intervalHours: 6, keep: 3 } });
    expect(put.statusCode).toBe(200);
    expect(put.json().settings).toMatchObject({ enabled: true, intervalHours: 6, keep: 3 });
    expect((await api.call('PUT', '/app/backups/settings', { token: key, body: { keep: 0 } })).statusCode).toBe(422);
    const reader = api.key('One', ['teams.read']);
    expect((await api.call('GET', '/app/backups', { token: reader })).statusCode).toBe(403);
    api.key('Two');
    const shared = await api.call('GET', '/app/backups', { token: key });
    expect(shared.statusCode).toBe(403);
    expect(shared.json().description).toMatch(/finops backup/);
  });
});
