import crypto from 'node:crypto';
import type { WorkflowDetail, WorkflowSummary } from '../../../src-shared/contract/app-workflows';
import {
  TRIGGER_TYPES,
  type Trigger,
  type TriggerType,
  type WorkflowDefinition,
} from '../../../src-shared/contract/workflow-definition';
import type { Db } from '../db';
import { Conflict, NotFound } from '../errors';
import { listFingerprint } from '../list/cursor';
import { keysetPage } from '../list/keyset';
import { principalName } from '../users/principal-names';
import { type Writer, write } from '../write';

/**
 * Workflow definitions: the workflow record (flags, promoted version, webhook secret), its numbered versions, and
 * the schedule rows of its schedule triggers. Validation of a definition is the caller's (src-main/workflows/
 * catalog.ts): the store keeps what it is given. Every query filters by team; another team's workflow is NotFound.
 */

interface WorkflowRow {
  id: string;
  team_id: string;
  name: string;
  description: string | null;
  active: number;
  api_execution: number;
  promoted_version: number | null;
  trigger_types: string;
  webhook_secret: string;
  created_at: string;
  updated_at: string;
}

export interface ScheduleRow {
  triggerIndex: number;
  cron: string;
  timezone: string;
  nextFireAt: string;
}

/** What a start needs to know about a workflow, definition still as stored text. */
export interface WorkflowForStart {
  id: string;
  teamId: string;
  name: string;
  active: boolean;
  apiExecution: boolean;
  promotedVersion: number | null;
  /** The promoted version's definition as stored (JSON text), or null when none is promoted. */
  promotedDefinition: string | null;
}

export function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64url')}`;
}

function row(db: Db, teamId: string, id: string): WorkflowRow | undefined {
  return db.prepare('SELECT * FROM workflows WHERE team_id = ? AND id = ?').get(teamId, id) as WorkflowRow | undefined;
}

function requireRow(db: Db, teamId: string, id: string): WorkflowRow {
  const r = row(db, teamId, id);
  if (!r) throw new NotFound('workflow', id);
  return r;
}

function latestVersion(db: Db, workflowId: string): number {
  return (
    (db
      .prepare('SELECT coalesce(max(version), 0) FROM workflow_versions WHERE workflow_id = ?')
      .pluck()
      .get(workflowId) as number) ?? 0
  );
}

/**
 * Stores a definition as a new version: of `workflowId` when given (the team's workflow, or a new one with that
 * id), else of a new workflow. A workflow id used by another team is a Conflict (ids are global). Returns the
 * workflow id and the version number.
 */
export function addWorkflowVersion(
  db: Db,
  teamId: string,
  definition: WorkflowDefinition,
  options: { workflowId?: string; author?: string | null } = {},
): { workflowId: string; version: number; created: boolean } {
  return write(db, teamId, (w) => {
    const wantedId = options.workflowId ?? definition.id;
    let created = false;
    let workflowId = wantedId;
    if (wantedId && !row(db, teamId, wantedId)) {
      if (db.prepare('SELECT 1 FROM workflows WHERE id = ?').get(wantedId)) {
        throw new Conflict(
          `workflow id ${wantedId} is taken`,
          'another team has a workflow with this id; remove "id" from the file to import it as a new workflow',
        );
      }
    }
    if (!workflowId || !row(db, teamId, workflowId)) {
      workflowId = w.insert('workflow', {
        ...(wantedId ? { id: wantedId } : {}),
        name: definition.name,
        description: definition.description ?? null,
        // A new workflow starts with its first version's flags; later versions apply theirs when promoted.
        active: definition.active ? 1 : 0,
        api_execution: definition.apiExecution ? 1 : 0,
        trigger_types: '[]',
        webhook_secret: newWebhookSecret(),
      });
      created = true;
    }
    const version = latestVersion(db, workflowId) + 1;
    const stored = { ...definition, id: workflowId };
    db.prepare(
      'INSERT INTO workflow_versions (team_id, workflow_id, version, definition, created_at, author) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(teamId, workflowId, version, JSON.stringify(stored), w.now, options.author ?? null);
    if (!created) w.touch('workflow', workflowId);
    return { workflowId, version, created };
  });
}

/** The stored definition text of one version; NotFound when the team's workflow has no such version. */
export function getWorkflowVersionText(db: Db, teamId: string, workflowId: string, version: number): string {
  const text = db
    .prepare('SELECT definition FROM workflow_versions WHERE team_id = ? AND workflow_id = ? AND version = ?')
    .pluck()
    .get(teamId, workflowId, version) as string | undefined;
  if (text === undefined) throw new NotFound('workflow version', `${workflowId} v${version}`);
  return text;
}

export function listWorkflowVersionTexts(
  db: Db,
  teamId: string,
  workflowId: string,
): { version: number; definition: string; createdAt: string; author: string | null }[] {
  return db
    .prepare(
      'SELECT version, definition, created_at AS createdAt, author FROM workflow_versions WHERE team_id = ? AND workflow_id = ? ORDER BY version',
    )
    .all(teamId, workflowId) as { version: number; definition: string; createdAt: string; author: string | null }[];
}

/** Who stored a version of the team's workflow (a principal); null for versions from before authors were kept. */
export function workflowVersionAuthor(db: Db, teamId: string, workflowId: string, version: number): string | null {
  return (
    (db
      .prepare('SELECT author FROM workflow_versions WHERE team_id = ? AND workflow_id = ? AND version = ?')
      .pluck()
      .get(teamId, workflowId, version) as string | null | undefined) ?? null
  );
}

/**
 * Makes `version` the one that runs and applies its flags and triggers to the workflow; `schedules` are the rows of
 * its schedule triggers (the caller computes their next times; a row whose cron and zone are unchanged keeps its
 * next time, so promoting again never skips or repeats a firing).
 */
export function promoteWorkflowVersion(
  db: Db,
  teamId: string,
  workflowId: string,
  version: number,
  applied: { name: string; description: string | null; active: boolean; apiExecution: boolean; triggers: readonly Trigger[] },
  schedules: readonly ScheduleRow[],
): void {
  write(db, teamId, (w) => {
    requireRow(db, teamId, workflowId);
    getWorkflowVersionText(db, teamId, workflowId, version);
    w.update('workflow', workflowId, {
      promoted_version: version,
      name: applied.name,
      description: applied.description,
      active: applied.active ? 1 : 0,
      api_execution: applied.apiExecution ? 1 : 0,
      trigger_types: JSON.stringify([...new Set(applied.triggers.map((t) => t.type))]),
    });
    replaceSchedules(w, workflowId, applied.active ? schedules : []);
  });
}

/** Turns a workflow on or off; schedules are the promoted version's schedule rows when turning on. */
export function setWorkflowActive(
  db: Db,
  teamId: string,
  workflowId: string,
  active: boolean,
  schedules: readonly ScheduleRow[],
): void {
  write(db, teamId, (w) => {
    requireRow(db, teamId, workflowId);
    w.update('workflow', workflowId, { active: active ? 1 : 0 });
    replaceSchedules(w, workflowId, active ? schedules : []);
  });
}

function replaceSchedules(w: Writer, workflowId: string, schedules: readonly ScheduleRow[]): void {
  const existing = w.db
    .prepare(
      'SELECT trigger_index AS triggerIndex, cron, timezone, next_fire_at AS nextFireAt FROM workflow_schedules WHERE workflow_id = ?',
    )
    .all(workflowId) as ScheduleRow[];
  w.db.prepare('DELETE FROM workflow_schedules WHERE workflow_id = ?').run(workflowId);
  const insert = w.db.prepare(
    'INSERT INTO workflow_schedules (team_id, workflow_id, trigger_index, cron, timezone, next_fire_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const s of schedules) {
    const same = existing.find((e) => e.cron === s.cron && e.timezone === s.timezone);
    insert.run(w.teamId, workflowId, s.triggerIndex, s.cron, s.timezone, same?.nextFireAt ?? s.nextFireAt);
  }
}

export function rotateWebhookSecret(db: Db, teamId: string, workflowId: string): string {
  const secret = newWebhookSecret();
  write(db, teamId, (w) => {
    requireRow(db, teamId, workflowId);
    w.update('workflow', workflowId, { webhook_secret: secret });
  });
  return secret;
}

export function getWebhookSecret(db: Db, teamId: string, workflowId: string): string {
  return requireRow(db, teamId, workflowId).webhook_secret;
}

/** The workflow's team and secret by id alone, for the inbound webhook (which has no credential). */
export function findWebhookTarget(db: Db, workflowId: string): { teamId: string; secret: string } | undefined {
  const r = db.prepare('SELECT team_id AS teamId, webhook_secret AS secret FROM workflows WHERE id = ?').get(workflowId) as
    | { teamId: string; secret: string }
    | undefined;
  return r;
}

export function getWorkflowForStart(db: Db, teamId: string, workflowId: string): WorkflowForStart {
  const r = requireRow(db, teamId, workflowId);
  return {
    id: r.id,
    teamId: r.team_id,
    name: r.name,
    active: r.active === 1,
    apiExecution: r.api_execution === 1,
    promotedVersion: r.promoted_version,
    promotedDefinition: r.promoted_version === null ? null : getWorkflowVersionText(db, teamId, r.id, r.promoted_version),
  };
}

/** Active workflows of the team whose promoted version declares `triggerType`. */
export function workflowsDeclaring(db: Db, teamId: string, triggerType: string): string[] {
  return db
    .prepare(
      `SELECT id FROM workflows w WHERE team_id = ? AND active = 1 AND promoted_version IS NOT NULL
         AND EXISTS (SELECT 1 FROM json_each(w.trigger_types) WHERE value = ?) ORDER BY created_at, id`,
    )
    .pluck()
    .all(teamId, triggerType) as string[];
}

/** Schedule rows due at `now`, every team (the scheduler runs them each in its team's write). */
export function dueSchedules(db: Db, now: string, limit = 100): (ScheduleRow & { teamId: string; workflowId: string })[] {
  return db
    .prepare(
      `SELECT team_id AS teamId, workflow_id AS workflowId, trigger_index AS triggerIndex, cron, timezone, next_fire_at AS nextFireAt
       FROM workflow_schedules WHERE next_fire_at <= ? ORDER BY next_fire_at LIMIT ?`,
    )
    .all(now, limit) as (ScheduleRow & { teamId: string; workflowId: string })[];
}

/**
 * Moves a schedule on after it fired, inside the write that enqueued its run. Returns false (and the caller rolls
 * back) when the row no longer says `firedAt`: another process already fired it.
 */
export function advanceSchedule(
  w: Writer,
  workflowId: string,
  triggerIndex: number,
  firedAt: string,
  nextFireAt: string,
): boolean {
  const r = w.db
    .prepare(
      `UPDATE workflow_schedules SET next_fire_at = ?, last_fired_at = ?
       WHERE workflow_id = ? AND trigger_index = ? AND next_fire_at = ? AND team_id = ?`,
    )
    .run(nextFireAt, w.now, workflowId, triggerIndex, firedAt, w.teamId);
  return r.changes === 1;
}

export function listSchedules(db: Db, teamId: string, workflowId: string): ScheduleRow[] {
  return db
    .prepare(
      `SELECT trigger_index AS triggerIndex, cron, timezone, next_fire_at AS nextFireAt FROM workflow_schedules
       WHERE team_id = ? AND workflow_id = ? ORDER BY trigger_index`,
    )
    .all(teamId, workflowId) as ScheduleRow[];
}

/** The triggers a stored definition declares, read without judging the rest of it (a summary shows them). */
function storedTriggers(text: string): WorkflowSummary['triggers'] {
  let raw: { triggers?: unknown };
  try {
    raw = JSON.parse(text) as { triggers?: unknown };
  } catch {
    return [];
  }
  if (!Array.isArray(raw?.triggers)) return [];
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return raw.triggers.flatMap((t: Record<string, unknown> | null) =>
    t && typeof t === 'object' && (TRIGGER_TYPES as readonly unknown[]).includes(t.type)
      ? [{ type: t.type as TriggerType, cron: str(t.cron), timezone: str(t.timezone), segment: str(t.segment) }]
      : [],
  );
}

function summary(db: Db, r: WorkflowRow): WorkflowSummary {
  const latest = latestVersion(db, r.id);
  const shownVersion = r.promoted_version ?? latest;
  const text = shownVersion ? getWorkflowVersionText(db, r.team_id, r.id, shownVersion) : null;
  const triggers = text ? storedTriggers(text) : [];
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    active: r.active === 1,
    apiExecution: r.api_execution === 1,
    promotedVersion: r.promoted_version,
    latestVersion: latest,
    triggers,
    webhookPath: triggers.some((t) => t.type === 'webhook') ? `/hooks/workflows/${r.id}` : null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The workflow as the app's lists show it (also the change feed's reader). */
export function getWorkflowSummary(db: Db, teamId: string, id: string): WorkflowSummary {
  return summary(db, requireRow(db, teamId, id));
}

/** The workflow with its versions; `isValid` judges each stored version by the caller's rules. */
export function getWorkflow(db: Db, teamId: string, id: string, isValid: (definition: string) => boolean): WorkflowDetail {
  const r = requireRow(db, teamId, id);
  const versions = listWorkflowVersionTexts(db, teamId, id);
  const shown = versions.find((v) => v.version === r.promoted_version) ?? versions[versions.length - 1];
  return {
    ...summary(db, r),
    versions: versions.map((v) => ({
      version: v.version,
      createdAt: v.createdAt,
      author: v.author,
      authorName: principalName(db, teamId, v.author),
      promoted: v.version === r.promoted_version,
      valid: isValid(v.definition),
    })),
    definition: shown ? (JSON.parse(shown.definition) as WorkflowDetail['definition']) : null,
  };
}

/** The names of the team's workflows. */
export function workflowNames(db: Db, teamId: string): string[] {
  return db.prepare('SELECT name FROM workflows WHERE team_id = ? ORDER BY name').pluck().all(teamId) as string[];
}

export interface WorkflowPage {
  data: WorkflowSummary[];
  meta: { cursor: string | null; hasPreviousPage: boolean; hasNextPage: boolean };
}

export function listWorkflows(
  db: Db,
  teamId: string,
  query: { cursor?: string; pageSize: number; active?: boolean },
): WorkflowPage {
  const where = ['w.team_id = @team'];
  if (query.active !== undefined) where.push(`w.active = ${query.active ? 1 : 0}`);
  const page = keysetPage(db, {
    from: 'workflows w',
    id: 'w.id',
    where,
    params: { team: teamId },
    sort: { sql: 'w.created_at', kind: 'text' },
    direction: 'desc',
    pageSize: query.pageSize,
    fingerprint: listFingerprint(['workflows', teamId, query.active ?? null]),
    cursor: query.cursor,
  });
  const data = page.ids.map((id) => summary(db, requireRow(db, teamId, id)));
  return { data, meta: { cursor: page.cursor, hasPreviousPage: page.hasPreviousPage, hasNextPage: page.hasNextPage } };
}

/** Test and CLI helper: every workflow id of the team. */
export function workflowIds(db: Db, teamId: string): string[] {
  return db.prepare('SELECT id FROM workflows WHERE team_id = ? ORDER BY created_at, id').pluck().all(teamId) as string[];
}
