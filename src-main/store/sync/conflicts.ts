import crypto from 'node:crypto';
import {
  type ConflictRuleCode,
  type ConflictRuleParams,
  isConflictRuleCode,
} from '../../../src-shared/domain/sync/conflict-rules';
import type { Winner } from '../../../src-shared/domain/sync/fields';
import { canonicalJson, type Json } from '../../../src-shared/domain/sync/merge';
import type { Db } from '../db';
import { NotFound } from '../errors';
import { newId, nowIso } from '../ids';

/**
 * Conflicts a round met (docs/decisions/0140-sync-engine.md): a group of fields changed on both sides to different
 * values, a delete against an edit, or a change the local store refused. Each is recorded with the base, both
 * values, the stated rule that decided and which side it kept; a person can take the other side with one action.
 * The rule is kept twice: its English sentence (the CLI's) and its code with params, which screens translate
 * (docs/decisions/0193-conflict-rule-codes.md); rows from before codes have none.
 * The same conflict (record, group and values) is recorded once, however many rounds meet it.
 */
export type ConflictKind = 'fields' | 'delete' | 'refused';

export interface SyncConflict {
  id: string;
  remoteId: string;
  entity: string;
  localId: string;
  kind: ConflictKind;
  group: string;
  fields: string[];
  base: Record<string, Json> | null;
  local: Record<string, Json> | null;
  remote: Record<string, Json> | null;
  rule: string;
  ruleCode: ConflictRuleCode | null;
  ruleParams: ConflictRuleParams | null;
  winner: Winner;
  createdAt: string;
  resolvedAt: string | null;
  /** 'kept_local' | 'took_remote' as the round decided; after a person's choice, what they took. */
  outcome: 'kept_local' | 'took_remote';
}

interface Row {
  id: string;
  remote_id: string;
  entity: string;
  local_id: string;
  fields: string;
  base_json: string | null;
  local_json: string | null;
  remote_json: string | null;
  rule: string;
  rule_code: string | null;
  rule_params: string | null;
  outcome: 'kept_local' | 'took_remote';
  group_name: string | null;
  winner: Winner | null;
  created_at: string;
  resolved_at: string | null;
}

function toConflict(r: Row): SyncConflict {
  const meta = JSON.parse(r.fields) as { kind?: ConflictKind; fields?: string[] } | string[];
  const kind = Array.isArray(meta) ? 'fields' : (meta.kind ?? 'fields');
  return {
    id: r.id,
    remoteId: r.remote_id,
    entity: r.entity,
    localId: r.local_id,
    kind,
    group: r.group_name ?? '',
    fields: Array.isArray(meta) ? meta : (meta.fields ?? []),
    base: r.base_json ? JSON.parse(r.base_json) : null,
    local: r.local_json ? JSON.parse(r.local_json) : null,
    remote: r.remote_json ? JSON.parse(r.remote_json) : null,
    rule: r.rule,
    // A code this build does not know (a newer one wrote it) reads as a row without one: its English sentence.
    ruleCode: isConflictRuleCode(r.rule_code) ? r.rule_code : null,
    ruleParams: isConflictRuleCode(r.rule_code) && r.rule_params ? JSON.parse(r.rule_params) : null,
    winner: r.winner ?? (r.outcome === 'kept_local' ? 'local' : 'remote'),
    createdAt: r.created_at,
    resolvedAt: r.resolved_at,
    outcome: r.outcome,
  };
}

export interface NewConflict {
  teamId: string;
  remoteId: string;
  entity: string;
  localId: string;
  kind: ConflictKind;
  group: string;
  fields: readonly string[];
  base: Record<string, Json> | null;
  local: Record<string, Json> | null;
  remote: Record<string, Json> | null;
  rule: string;
  /**
   * The rule's code and its sentence's variable parts (src-shared/domain/sync/conflict-rules.ts); the engine states one for
   * every rule it writes. Left out or null: a sentence with none, shown as it is.
   */
  ruleCode?: ConflictRuleCode | null;
  ruleParams?: ConflictRuleParams | null;
  winner: Winner;
}

/** Records a conflict unless the same one (record, group, values) is already recorded; returns whether it is new. */
export function recordConflict(db: Db, c: NewConflict): boolean {
  const valuesHash = crypto
    .createHash('sha256')
    .update(canonicalJson({ kind: c.kind, group: c.group, local: c.local, remote: c.remote }))
    .digest('hex')
    .slice(0, 32);
  const r = db
    .prepare(
      `INSERT INTO sync_conflicts (id, team_id, remote_id, entity, local_id, fields, base_json, local_json, remote_json,
         rule, rule_code, rule_params, outcome, group_name, winner, values_hash, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (remote_id, entity, local_id, values_hash) DO UPDATE SET
         resolved_at = NULL, outcome = excluded.outcome, winner = excluded.winner, rule = excluded.rule,
         rule_code = excluded.rule_code, rule_params = excluded.rule_params, created_at = excluded.created_at
       WHERE sync_conflicts.resolved_at IS NOT NULL AND sync_conflicts.outcome != excluded.outcome`,
    )
    .run(
      newId(),
      c.teamId,
      c.remoteId,
      c.entity,
      c.localId,
      JSON.stringify({ kind: c.kind, fields: c.fields }),
      c.base ? canonicalJson(c.base) : null,
      c.local ? canonicalJson(c.local) : null,
      c.remote ? canonicalJson(c.remote) : null,
      c.rule,
      c.ruleCode ?? null,
      c.ruleCode && c.ruleParams ? JSON.stringify(c.ruleParams) : null,
      c.winner === 'local' ? 'kept_local' : 'took_remote',
      c.group,
      c.winner,
      valuesHash,
      nowIso(),
    );
  return r.changes === 1;
}

export interface ConflictQuery {
  /** Open ones only (default), or every one. */
  all?: boolean;
  limit?: number;
}

export function listConflicts(db: Db, teamId: string, query: ConflictQuery = {}): SyncConflict[] {
  return (
    db
      .prepare(
        `SELECT * FROM sync_conflicts WHERE team_id = ? ${query.all ? '' : 'AND resolved_at IS NULL'}
         ORDER BY created_at DESC, id DESC LIMIT ?`,
      )
      .all(teamId, query.limit ?? 500) as Row[]
  ).map(toConflict);
}

export function openConflictCount(db: Db, teamId: string): number {
  return db
    .prepare('SELECT count(*) FROM sync_conflicts WHERE team_id = ? AND resolved_at IS NULL')
    .pluck()
    .get(teamId) as number;
}

export function getConflict(db: Db, teamId: string, id: string): SyncConflict {
  const row = db.prepare('SELECT * FROM sync_conflicts WHERE team_id = ? AND id = ?').get(teamId, id) as Row | undefined;
  if (!row) throw new NotFound('sync conflict', id);
  return toConflict(row);
}

/** Closes a conflict with the side a person took (the taken value itself is written by the engine). */
export function closeConflict(db: Db, teamId: string, id: string, took: Winner): void {
  const r = db
    .prepare(`UPDATE sync_conflicts SET resolved_at = ?, outcome = ? WHERE team_id = ? AND id = ?`)
    .run(nowIso(), took === 'local' ? 'kept_local' : 'took_remote', teamId, id);
  if (r.changes === 0) throw new NotFound('sync conflict', id);
}

/**
 * Settles a record's open conflicts of a kind once a later round got past them (a remote record the store refused
 * was taken after all): closed with the remote's side, as that is what the record now holds. Returns how many.
 */
export function settleConflicts(db: Db, remoteId: string, entity: string, localId: string, kind: ConflictKind): number {
  return db
    .prepare(
      `UPDATE sync_conflicts SET resolved_at = ?, outcome = 'took_remote'
       WHERE remote_id = ? AND entity = ? AND local_id = ? AND resolved_at IS NULL AND json_extract(fields, '$.kind') = ?`,
    )
    .run(nowIso(), remoteId, entity, localId, kind).changes;
}

/** Open conflicts of one record (a newer round's merge supersedes them when the record agrees again). */
export function openConflictsOf(db: Db, remoteId: string, entity: string, localId: string): SyncConflict[] {
  return (
    db
      .prepare('SELECT * FROM sync_conflicts WHERE remote_id = ? AND entity = ? AND local_id = ? AND resolved_at IS NULL')
      .all(remoteId, entity, localId) as Row[]
  ).map(toConflict);
}
