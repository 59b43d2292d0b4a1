import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DB_FILE_NAME, type Db, openDatabase } from '../../../src-main/store/db';
import {
  beginIdempotentRequest,
  completeIdempotentRequest,
  DEFAULT_RETENTION_MS,
  type IdempotencyScope,
  markIdempotentWriteCommitted,
  purgeExpiredIdempotencyKeys,
  releaseIdempotentRequest,
  renewLease,
} from '../../../src-main/store/idempotency';
import { ensureTeam } from '../../../src-main/store/teams/teams';
import { withWriteHook, write } from '../../../src-main/store/write';
import { deadPid } from '../../helpers/processes';
import { tmpDir } from '../../helpers/tmp';

const T0 = new Date('2026-01-01T12:00:00.000Z');
const LEASE = 30_000;
const at = (ms: number) => new Date(T0.getTime() + ms);
const opts = (ms = 0) => ({ now: at(ms), leaseMs: LEASE, retentionMs: DEFAULT_RETENTION_MS });
const scope: IdempotencyScope = { credentialId: 'cred-1', route: 'POST /v1/customers {}', key: 'k-1' };
const response = { statusCode: 201, contentType: 'application/json; charset=utf-8', body: Buffer.from('{"id":"x"}') };

function setup(): { db: Db; teamId: string; dir: string } {
  const dir = tmpDir('finops-idem-');
  const db = openDatabase(dir);
  const teamId = ensureTeam(db, 'acme').id;
  return { db, teamId, dir };
}

describe('idempotency store', () => {
  it('takes a free key, then reports it running to a second caller, then replays the stored response', () => {
    const { db, teamId } = setup();
    const first = beginIdempotentRequest(db, teamId, scope, 'h1', opts());
    expect(first).toMatchObject({ kind: 'acquired', takenOver: false });
    expect(beginIdempotentRequest(db, teamId, scope, 'h1', opts(10))).toMatchObject({ kind: 'running' });
    if (first.kind !== 'acquired') throw new Error('unreachable');
    expect(completeIdempotentRequest(db, teamId, scope, first.owner, response)).toBe(true);
    const again = beginIdempotentRequest(db, teamId, scope, 'h1', opts(20));
    expect(again).toMatchObject({ kind: 'replay', response: { statusCode: 201, contentType: response.contentType } });
    if (again.kind === 'replay') expect(again.response.body.toString()).toBe('{"id":"x"}');
    db.close();
  });

  it('reports a mismatch for another request hash, whether running or done', () => {
    const { db, teamId } = setup();
    const first = beginIdempotentRequest(db, teamId, scope, 'h1', opts());
    expect(beginIdempotentRequest(db, teamId, scope, 'h2', opts())).toEqual({ kind: 'mismatch' });
    if (first.kind !== 'acquired') throw new Error('unreachable');
    completeIdempotentRequest(db, teamId, scope, first.owner, response);
    expect(beginIdempotentRequest(db, teamId, scope, 'h2', opts())).toEqual({ kind: 'mismatch' });
    db.close();
  });

  it('keeps team, credential, route and key apart', () => {
    const { db, teamId } = setup();
    const other = ensureTeam(db, 'globex').id;
    expect(beginIdempotentRequest(db, teamId, scope, 'h1', opts()).kind).toBe('acquired');
    expect(beginIdempotentRequest(db, other, scope, 'h1', opts()).kind).toBe('acquired');
    expect(beginIdempotentRequest(db, teamId, { ...scope, credentialId: 'cred-2' }, 'h1', opts()).kind).toBe('acquired');
    expect(beginIdempotentRequest(db, teamId, { ...scope, route: 'PATCH /v1/customers/:id {"id":"a"}' }, 'h1', opts()).kind).toBe(
      'acquired',
    );
    expect(beginIdempotentRequest(db, teamId, { ...scope, key: 'k-2' }, 'h1', opts()).kind).toBe('acquired');
    db.close();
  });

  it('lets a lapsed lease be taken over, and the old owner can then neither complete nor release', () => {
    const { db, teamId } = setup();
    const first = beginIdempotentRequest(db, teamId, scope, 'h1', opts());
    if (first.kind !== 'acquired') throw new Error('unreachable');
    expect(beginIdempotentRequest(db, teamId, scope, 'h1', opts(LEASE - 1)).kind).toBe('running');
    const second = beginIdempotentRequest(db, teamId, scope, 'h1', opts(LEASE));
    expect(second).toMatchObject({ kind: 'acquired', takenOver: true });
    expect(completeIdempotentRequest(db, teamId, scope, first.owner, response)).toBe(false);
    expect(releaseIdempotentRequest(db, teamId, scope, first.owner)).toBe(false);
    expect(renewLease(db, teamId, scope, first.owner, at(LEASE * 3))).toBe(false);
    if (second.kind !== 'acquired') throw new Error('unreachable');
    expect(completeIdempotentRequest(db, teamId, scope, second.owner, response)).toBe(true);
    db.close();
  });

  it('renewing the lease keeps the key running past the original lease', () => {
    const { db, teamId } = setup();
    const first = beginIdempotentRequest(db, teamId, scope, 'h1', opts());
    if (first.kind !== 'acquired') throw new Error('unreachable');
    expect(renewLease(db, teamId, scope, first.owner, at(LEASE * 2))).toBe(true);
    expect(beginIdempotentRequest(db, teamId, scope, 'h1', opts(LEASE + 1)).kind).toBe('running');
    db.close();
  });

  it('a released key runs again', () => {
    const { db, teamId } = setup();
    const first = beginIdempotentRequest(db, teamId, scope, 'h1', opts());
    if (first.kind !== 'acquired') throw new Error('unreachable');
    expect(releaseIdempotentRequest(db, teamId, scope, first.owner)).toBe(true);
    expect(beginIdempotentRequest(db, teamId, scope, 'h2', opts(1))).toMatchObject({ kind: 'acquired', takenOver: false });
    db.close();
  });

  it('forgets a key after 24 h: the key is free again and the purge deletes expired rows only', () => {
    const { db, teamId } = setup();
    const first = beginIdempotentRequest(db, teamId, scope, 'h1', opts());
    if (first.kind !== 'acquired') throw new Error('unreachable');
    completeIdempotentRequest(db, teamId, scope, first.owner, response);
    beginIdempotentRequest(db, teamId, { ...scope, key: 'later' }, 'h1', opts(60 * 60_000));
    expect(beginIdempotentRequest(db, teamId, scope, 'h1', opts(DEFAULT_RETENTION_MS - 1)).kind).toBe('replay');
    expect(purgeExpiredIdempotencyKeys(db, at(DEFAULT_RETENTION_MS))).toBe(1);
    const count = db.prepare('SELECT COUNT(*) AS n FROM idempotency_keys').get() as { n: number };
    expect(count.n).toBe(1);
    expect(beginIdempotentRequest(db, teamId, scope, 'h2', opts(DEFAULT_RETENTION_MS))).toMatchObject({ kind: 'acquired' });
    db.close();
  });

  it('an expired row that was not purged yet counts as absent', () => {
    const { db, teamId } = setup();
    beginIdempotentRequest(db, teamId, scope, 'h1', opts());
    expect(beginIdempotentRequest(db, teamId, scope, 'h2', opts(DEFAULT_RETENTION_MS))).toMatchObject({
      kind: 'acquired',
      takenOver: false,
    });
    db.close();
  });

  it('commits the running marker so that another connection sees it', () => {
    const { db, teamId, dir } = setup();
    beginIdempotentRequest(db, teamId, scope, 'h1', opts());
    const other = new Database(path.join(dir, DB_FILE_NAME));
    const row = other.prepare('SELECT state FROM idempotency_keys WHERE idempotency_key = ?').get('k-1') as { state: string };
    expect(row.state).toBe('running');
    other.close();
    db.close();
  });

  it('throws when another connection holds the write lock (the caller maps this to 503)', () => {
    const { db, teamId, dir } = setup();
    db.pragma('busy_timeout = 50');
    const other = new Database(path.join(dir, DB_FILE_NAME));
    other.exec('BEGIN IMMEDIATE');
    expect(() => beginIdempotentRequest(db, teamId, scope, 'h1', opts())).toThrow(/locked|busy/i);
    other.exec('ROLLBACK');
    other.close();
    expect(beginIdempotentRequest(db, teamId, scope, 'h1', opts()).kind).toBe('acquired');
    db.close();
  });

  // docs/decisions/0189-crash-harness.md: the crash between a handler's commit and its stored answer.
  it('never runs a key again once its holder committed a change, and runs one whose change rolled back', () => {
    const { db, teamId } = setup();
    const first = beginIdempotentRequest(db, teamId, scope, 'h1', opts());
    if (first.kind !== 'acquired') throw new Error('unreachable');
    const mark = () => markIdempotentWriteCommitted(db, teamId, scope, first.owner);
    expect(() =>
      withWriteHook(mark, () =>
        write(db, teamId, (w) => {
          w.insert('tag', { name: 'rolled back' });
          throw new Error('refused');
        }),
      ),
    ).toThrow('refused');
    // The holder died having changed nothing: its retry runs.
    const second = beginIdempotentRequest(db, teamId, scope, 'h1', opts(LEASE + 1));
    expect(second).toMatchObject({ kind: 'acquired', takenOver: true });
    if (second.kind !== 'acquired') throw new Error('unreachable');
    withWriteHook(
      () => markIdempotentWriteCommitted(db, teamId, scope, second.owner),
      () => write(db, teamId, (w) => w.insert('tag', { name: 'made' })),
    );
    // This one died after its commit and before its answer was stored: never again, not even after the lease.
    expect(beginIdempotentRequest(db, teamId, scope, 'h1', opts(3 * LEASE))).toEqual({ kind: 'carried-out' });
    expect(beginIdempotentRequest(db, teamId, scope, 'h2', opts(3 * LEASE))).toEqual({ kind: 'mismatch' });
    db.close();
  });

  it('takes over at once a key whose holder was a process of this machine that is gone', async () => {
    const { db, teamId } = setup();
    beginIdempotentRequest(db, teamId, scope, 'h1', opts());
    expect(beginIdempotentRequest(db, teamId, scope, 'h1', opts(10))).toMatchObject({ kind: 'running' });
    db.prepare('UPDATE idempotency_keys SET owner = ?').run(`${os.hostname()}:${await deadPid()}:abcd:0193`);
    expect(beginIdempotentRequest(db, teamId, scope, 'h1', opts(20))).toMatchObject({ kind: 'acquired', takenOver: true });
    db.close();
  });
});
