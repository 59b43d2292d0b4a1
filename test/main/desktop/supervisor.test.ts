/**
 * The supervisor against the real server host in real Node child processes (Electron's utility process cannot
 * run here; the host and the supervisor are the same code either way, behind LaunchServerChild).
 *
 * @module-tag slow (spawns processes; left out of `npm run test:fast`)
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { desktopTeam } from '../../../src-main/desktop/desktop-key';
import { nodeLauncher } from '../../../src-main/desktop/node-launcher';
import type { ProgressEvent } from '../../../src-main/desktop/protocol';
import { RestartPolicy } from '../../../src-main/desktop/restart-policy';
import { ServerSupervisor, SupervisorGaveUp } from '../../../src-main/desktop/supervisor';
import { secretAccounts, sessionSecretStore } from '../../../src-main/infra/secret-store';
import { openDataDir } from '../../../src-main/runtime/data-dir';
import { DB_FILE_NAME, openDatabase } from '../../../src-main/store/db';
import { LATEST_VERSION } from '../../../src-main/store/migrations/index';
import { ensureRemote } from '../../../src-main/store/sync/remotes';
import type { ServerStatus } from '../../../src-shared/desktop-bridge';
import { tmpDir } from '../../helpers/tmp';

const running: ServerSupervisor[] = [];

afterEach(async () => {
  for (const s of running.splice(0)) await s.stop();
});

function supervise(dataDir: string, extra: Partial<ConstructorParameters<typeof ServerSupervisor>[0]> = {}) {
  const pids: (number | undefined)[] = [];
  const statuses: ServerStatus['state'][] = [];
  const s = new ServerSupervisor({
    launch: nodeLauncher(undefined, { onSpawn: (pid) => pids.push(pid) }),
    dataDir,
    webRoot: null,
    initialApiKey: null,
    policy: new RestartPolicy({ maxCrashes: 3, windowMs: 60_000, baseDelayMs: 50, maxDelayMs: 200 }),
    ...extra,
  });
  s.onStatus((st) => statuses.push(st.state));
  running.push(s);
  return { s, pids, statuses };
}

async function customersStatus(url: string, key: string): Promise<number> {
  const res = await fetch(`${url}/v1/tags`, { headers: { authorization: `Bearer ${key}` } });
  return res.status;
}

function waitFor(check: () => boolean, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const tick = () => {
      if (check()) return resolve();
      if (Date.now() > until) return reject(new Error('timed out'));
      setTimeout(tick, 25);
    };
    tick();
  });
}

describe('ServerSupervisor with the real server host', () => {
  it('starts the server on 127.0.0.1 with a random port and a working per-install key', async () => {
    const { s, statuses } = supervise(tmpDir('finops-sup-'));
    const ready = await s.start();
    expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.keyCreated).toBe(true);
    expect(await customersStatus(ready.url, ready.apiKey)).toBe(200);
    expect(await customersStatus(ready.url, `finops_${'1'.repeat(64)}`)).toBe(401);
    expect(statuses).toEqual(['starting', 'ready']);
  });

  it('restarts a killed server on the same port with the same key', async () => {
    const { s, pids, statuses } = supervise(tmpDir('finops-sup-'));
    const first = await s.start();
    process.kill(pids[0]!, 'SIGKILL');
    await waitFor(() => s.launches === 2 && s.status.state === 'ready');
    const second = await s.whenReady();
    expect(second.url).toBe(first.url);
    expect(second.apiKey).toBe(first.apiKey);
    expect(second.keyCreated).toBe(false);
    expect(await customersStatus(second.url, second.apiKey)).toBe(200);
    expect(statuses).toEqual(['starting', 'ready', 'restarting', 'starting', 'ready']);
  });

  it('keeps the key from the keychain across app launches (same data dir)', async () => {
    const dataDir = tmpDir('finops-sup-');
    const a = supervise(dataDir);
    const first = await a.s.start();
    await a.s.stop();
    const b = supervise(dataDir, { initialApiKey: first.apiKey });
    const second = await b.s.start();
    expect(second.keyCreated).toBe(false);
    expect(second.apiKey).toBe(first.apiKey);
  });

  it('stops cleanly: the host exits and the port is closed', async () => {
    const { s, statuses } = supervise(tmpDir('finops-sup-'));
    const ready = await s.start();
    await s.stop();
    expect(statuses.at(-1)).toBe('stopped');
    await expect(fetch(`${ready.url}/v1/health`)).rejects.toThrow();
    expect(s.launches).toBe(1);
  });

  it('gives up at once when the database is newer than the app (no restart loop)', async () => {
    const dataDir = tmpDir('finops-sup-');
    fs.mkdirSync(dataDir, { recursive: true });
    const raw = new Database(path.join(dataDir, DB_FILE_NAME));
    raw.pragma('user_version = 9999');
    raw.close();
    const { s, statuses } = supervise(dataDir);
    await expect(s.start()).rejects.toThrow(SupervisorGaveUp);
    expect(s.status).toMatchObject({ state: 'failed' });
    expect(s.status.state === 'failed' && s.status.reason).toMatch(/newer than this version/);
    expect(s.launches).toBe(1);
    expect(statuses).toEqual(['starting', 'failed']);
  });

  it('gives up after repeated crashes within the window', async () => {
    // A host that dies on start: a real process exiting with code 3 before answering.
    const crashing = tmpDir('finops-sup-crash-');
    const entry = path.join(crashing, 'crash.js');
    fs.writeFileSync(entry, 'process.exit(3);\n');
    const { s, statuses } = supervise(tmpDir('finops-sup-'), { launch: nodeLauncher(entry, { execArgv: [] }) });
    await expect(s.start()).rejects.toThrow(/exited \(code 3\).*4 times within 60 s/);
    expect(s.launches).toBe(4);
    expect(statuses.filter((x) => x === 'restarting')).toHaveLength(3);
  });

  it('reports the check, the backup before a migration and each migration step while it starts', async () => {
    const dataDir = tmpDir('finops-sup-');
    openDatabase(dataDir, { targetVersion: LATEST_VERSION - 1 }).close();
    const { s } = supervise(dataDir, { readyTimeoutMs: 20_000 });
    const progress: ProgressEvent[] = [];
    s.onProgress((p) => progress.push(p));
    await s.start();
    // `listening` last: the host says it once the database is open, so the open is timed as a quiet step.
    expect(progress.map((p) => p.phase)).toEqual(['opening', 'checking', 'backup', 'migration', 'migrated', 'listening']);
    progress.shift();
    expect(progress[1]?.path).toMatch(
      new RegExp(`^${dataDir}/backups/before-migration-v${LATEST_VERSION - 1}-to-v${LATEST_VERSION}-`),
    );
    expect(fs.existsSync(progress[1]?.path as string)).toBe(true);
    expect(progress[2]).toMatchObject({ step: 1, steps: 1, version: LATEST_VERSION });
  });

  it('gives up at once on a damaged database, saying so, and leaves the file as it was', async () => {
    const dataDir = tmpDir('finops-sup-');
    fs.writeFileSync(path.join(dataDir, DB_FILE_NAME), Buffer.alloc(4096, 7));
    const { s } = supervise(dataDir);
    await expect(s.start()).rejects.toThrow(/is damaged .*cannot be fixed by restarting/);
    expect(s.launches).toBe(1);
    expect(fs.readFileSync(path.join(dataDir, DB_FILE_NAME)).equals(Buffer.alloc(4096, 7))).toBe(true);
  });

  it('restart() from a stopped state starts a fresh host', async () => {
    const dataDir = tmpDir('finops-sup-');
    const { s } = supervise(dataDir, { readyTimeoutMs: 15_000 });
    const ready = await s.restart();
    expect(await customersStatus(ready.url, ready.apiKey)).toBe(200);
  });

  it("runs the host's sync rounds with the shell's credential, asked over the process boundary", async () => {
    // A remote that records the credential each request presents and refuses it (the round then stops).
    const seen: string[] = [];
    const remote = http.createServer((req, res) => {
      seen.push(req.headers.authorization ?? '(none)');
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"Unauthorized","message":"no"}');
    });
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}/v1`;
    try {
      const dataDir = tmpDir('finops-sup-');
      const db = openDataDir(dataDir);
      ensureRemote(db, desktopTeam(db).id, { baseUrl });
      db.close();
      const secrets = sessionSecretStore();
      const { s } = supervise(dataDir, { secrets });
      await s.start();
      // The first round finds no credential and waits for a person (no request reaches the remote)…
      await waitFor(() => {
        const check = openDataDir(dataDir);
        try {
          return check.prepare('SELECT state FROM sync_remotes').pluck().get() === 'credentials_expired';
        } finally {
          check.close();
        }
      });
      expect(seen).toEqual([]);
      // …until the shell stores one and says so: the round runs at once with it.
      await secrets.set(secretAccounts.syncToken(baseUrl), 'finops_remote_token');
      s.credentialChanged(baseUrl);
      await waitFor(() => seen.length > 0, 10_000);
      expect(seen[0]).toBe('Bearer finops_remote_token');
    } finally {
      remote.close();
    }
  });

  it('reaches a private address only once the person allows it, at once and again after a restart', async () => {
    // A remote on loopback that records each request; the host runs without the test process's own allowance, as
    // the app does for a person who never set $FINOPS_ALLOW_PRIVATE_HOSTS. It keeps no connection open: the list
    // judges each new connection (one kept alive from before is not judged again; docs/decisions/0191).
    const seen: string[] = [];
    const remote = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      res
        .writeHead(401, { 'content-type': 'application/json', connection: 'close' })
        .end('{"error":"Unauthorized","message":"no"}');
    });
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
    const port = (remote.address() as AddressInfo).port;
    const baseUrl = `http://127.0.0.1:${port}/v1`;
    try {
      const dataDir = tmpDir('finops-sup-');
      const db = openDataDir(dataDir);
      ensureRemote(db, desktopTeam(db).id, { baseUrl });
      db.close();
      const secrets = sessionSecretStore();
      await secrets.set(secretAccounts.syncToken(baseUrl), 'finops_remote_token');
      const { FINOPS_ALLOW_PRIVATE_HOSTS: _operatorOfTests, ...env } = process.env;
      const { s } = supervise(dataDir, {
        secrets,
        launch: nodeLauncher(undefined, { env }),
        allowPrivateHosts: ['192.168.1.10:587'],
      });
      const remoteRow = () => {
        const check = openDataDir(dataDir);
        try {
          return check.prepare('SELECT state, last_error AS lastError FROM sync_remotes').get() as {
            state: string;
            lastError: string | null;
          };
        } finally {
          check.close();
        }
      };
      // One round asked for and ended (a refused credential waits for a person: no round runs by itself after it).
      const round = async (ended: (row: { state: string; lastError: string | null }) => boolean) => {
        await waitFor(() => remoteRow().state !== 'running');
        s.credentialChanged(baseUrl);
        await waitFor(() => {
          const row = remoteRow();
          return row.state !== 'running' && ended(row);
        });
      };
      const refusedHere = (row: { lastError: string | null }) => /loopback address: refused/.test(row.lastError ?? '');
      await s.start();
      await round(refusedHere);
      expect(seen).toEqual([]);

      // Allowed in Settings: the running host applies it, the next round reaches the remote.
      s.setPrivateHosts(['192.168.1.10:587', `127.0.0.1:${port}`]);
      await round(() => seen.length > 0);
      expect(remoteRow().lastError).toMatch(/refused the credential/);

      // A host started afresh gets the list in its start message; taken away, loopback is refused again.
      await s.stop();
      await s.start();
      const before = seen.length;
      await round(() => seen.length > before);
      s.setPrivateHosts([]);
      const after = seen.length;
      await round(refusedHere);
      expect(seen.length).toBe(after);
    } finally {
      remote.close();
    }
  }, 60_000);
});

/**
 * A stand-in host in a real Node process: answers `start` with the progress messages `steps` lists (each after its
 * delay, in ms), then `ready` if it says so; exits on `stop`. The real host cannot be made slow on demand.
 */
function standInHost(steps: { afterMs: number; phase?: ProgressEvent['phase']; ready?: true }[]): string {
  const entry = path.join(tmpDir('finops-sup-standin-'), 'host.js');
  fs.writeFileSync(
    entry,
    `const steps = ${JSON.stringify(steps)};
process.on('message', (m) => {
  if (m.type === 'stop') process.exit(0);
  if (m.type !== 'start') return;
  let at = 0;
  steps.forEach((s, i) => {
    at += s.afterMs;
    setTimeout(() => process.send(s.ready
      ? { type: 'ready', url: 'http://127.0.0.1:45678', apiKey: 'finops_standin', keyCreated: false, teamId: 't' }
      : { type: 'progress', phase: s.phase, message: s.phase + ' ' + (i + 1), step: i + 1, steps: steps.length }), at);
  });
});
process.on('disconnect', () => process.exit(0));
`,
  );
  return entry;
}

describe('ServerSupervisor ready timeout against a host that reports progress', () => {
  const quick = { maxCrashes: 1, windowMs: 60_000, baseDelayMs: 20, maxDelayMs: 20 };

  it('waits for a host that keeps reporting well past the ready timeout, and ends ready', async () => {
    // Progress every 500 ms for 3 s against a 2 s timeout (wide enough for a Node start on a loaded machine).
    const entry = standInHost([
      ...Array.from({ length: 6 }, () => ({ afterMs: 500, phase: 'migrated' as const })),
      { afterMs: 500, ready: true },
    ]);
    const { s, statuses } = supervise(tmpDir('finops-sup-'), {
      launch: nodeLauncher(entry, { execArgv: [] }),
      readyTimeoutMs: 2_000,
      policy: new RestartPolicy(quick),
    });
    const progress: ProgressEvent[] = [];
    s.onProgress((p) => progress.push(p));
    const started = Date.now();
    const ready = await s.start();
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
    expect(ready.url).toBe('http://127.0.0.1:45678');
    expect(progress.map((p) => p.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(s.launches).toBe(1);
    expect(statuses).toEqual(['starting', 'ready']);
  });

  it('still times out a host that goes silent after reporting, as one that never says a word', async () => {
    for (const steps of [[{ afterMs: 100, phase: 'migrated' as const }], []]) {
      const { s, statuses } = supervise(tmpDir('finops-sup-'), {
        launch: nodeLauncher(standInHost(steps), { execArgv: [] }),
        readyTimeoutMs: 300,
        policy: new RestartPolicy(quick),
      });
      const started = Date.now();
      await expect(s.start()).rejects.toThrow(/did not start in time \(no word from it for 300 ms\)/);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(s.launches).toBe(2);
      expect(statuses).toEqual(['starting', 'restarting', 'starting', 'failed']);
    }
  });

  it('gives a migration step, which the host runs without a word, the longer quiet allowance, and no more', async () => {
    const slowStep = [
      { afterMs: 50, phase: 'migration' as const },
      { afterMs: 3_000, ready: true as const },
    ];
    const patient = supervise(tmpDir('finops-sup-'), {
      launch: nodeLauncher(standInHost(slowStep), { execArgv: [] }),
      readyTimeoutMs: 2_000,
      quietStepTimeoutMs: 6_000,
      policy: new RestartPolicy(quick),
    });
    await expect(patient.s.start()).resolves.toMatchObject({ url: 'http://127.0.0.1:45678' });
    expect(patient.s.launches).toBe(1);

    const wedged = supervise(tmpDir('finops-sup-'), {
      launch: nodeLauncher(standInHost([{ afterMs: 50, phase: 'migration' }]), { execArgv: [] }),
      readyTimeoutMs: 2_000,
      quietStepTimeoutMs: 3_000,
      policy: new RestartPolicy(quick),
    });
    await expect(wedged.s.start()).rejects.toThrow(/no word from it for 3 s/);
  });
});
