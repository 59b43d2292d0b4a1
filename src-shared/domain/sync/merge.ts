import type { EntitySyncSpec, GroupSpec, Winner } from './fields';

/**
 * The three-way merge of one record (docs/decisions/0140-sync-engine.md), group by group against the base — the
 * record as both sides last agreed on it:
 * - a group changed on one side only takes that side's value;
 * - a group changed on both sides to equal values is simply agreed;
 * - a group changed on both sides to different values is a conflict: its stated default (`GroupSpec.winner`)
 *   decides, and the conflict is reported with both values so a person can take the other one;
 * - without a base (a record matched by its natural key or its id on a first round), a value nobody chose never
 *   beats one a person set: an empty value, or one a record was made with (a default category's tax), gives way to
 *   the other side's without a conflict; two values someone chose that differ are a conflict;
 * Coupled fields form one group, so the amount never comes from one side and its split parts from the other.
 * Pure: no clock, no I/O; wall clocks of the machines never order anything.
 */

export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };
export type Projection = Readonly<Record<string, Json>>;

/** JSON with object keys sorted at every depth: equal values give equal text (hashes, equality, dedupe keys). */
export function canonicalJson(value: Json | undefined): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((x) => canonicalJson(x as Json)).join(',')}]`;
  const obj = value as { readonly [key: string]: Json };
  return `{${Object.keys(obj)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`)
    .join(',')}}`;
}

export function sameJson(a: Json | undefined, b: Json | undefined): boolean {
  return canonicalJson(a ?? null) === canonicalJson(b ?? null);
}

/** The fields of `group` of a projection, as one value (missing fields read as null). */
export function groupValue(p: Projection | undefined, fields: readonly string[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const f of fields) out[f] = p?.[f] ?? null;
  return out;
}

export interface MergeConflict {
  group: string;
  fields: readonly string[];
  base: Record<string, Json> | null;
  local: Record<string, Json>;
  remote: Record<string, Json>;
  winner: Winner;
  rule: string;
}

export interface MergeResult {
  /** The record after the merge (createOnly fields as the local side holds them). */
  merged: Record<string, Json>;
  /** Fields whose merged value differs from the local record: to set locally. */
  toLocal: Record<string, Json>;
  /** Fields whose merged value differs from the remote record: to send to the remote. */
  toRemote: Record<string, Json>;
  conflicts: MergeConflict[];
}

/** Empty: null, '', an empty list or object — no one wrote anything there. */
export function isEmptyValue(v: Json | undefined): boolean {
  if (v === null || v === undefined || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}

export interface MergeOptions {
  /**
   * Without a base: whether one side's value of a group is one nobody chose beyond being empty (a default the record
   * was made with, such as a default category's tax for that side's country).
   */
  unchosen?: (side: Winner, group: GroupSpec, value: Record<string, Json>) => boolean;
}

export function mergeRecord(
  spec: EntitySyncSpec,
  base: Projection | undefined,
  local: Projection,
  remote: Projection,
  options: MergeOptions = {},
): MergeResult {
  const unchosen = (side: Winner, group: GroupSpec, value: Record<string, Json>) =>
    group.fields.every((f) => isEmptyValue(value[f])) || (options.unchosen?.(side, group, value) ?? false);
  const merged: Record<string, Json> = { ...local };
  const toLocal: Record<string, Json> = {};
  const toRemote: Record<string, Json> = {};
  const conflicts: MergeConflict[] = [];
  for (const group of spec.groups) {
    const b = base ? groupValue(base, group.fields) : undefined;
    const l = groupValue(local, group.fields);
    const r = groupValue(remote, group.fields);
    let take: Winner;
    if (sameJson(l, r)) continue;
    let localChanged = b === undefined || !sameJson(l, b);
    let remoteChanged = b === undefined || !sameJson(r, b);
    if (b === undefined) {
      // No base: a side whose value nobody chose counts as unchanged; of two such, the one holding data stays.
      const lu = unchosen('local', group, l);
      const ru = unchosen('remote', group, r);
      if (lu && ru) {
        const localEmpty = group.fields.every((f) => isEmptyValue(l[f]));
        localChanged = !localEmpty;
        remoteChanged = localEmpty;
      } else {
        localChanged = !lu;
        remoteChanged = !ru;
      }
    }
    if (localChanged && !remoteChanged) take = 'local';
    else if (!localChanged && remoteChanged) take = 'remote';
    else {
      take = group.winner;
      conflicts.push({
        group: group.name,
        fields: group.fields,
        base: b ?? null,
        local: l,
        remote: r,
        winner: group.winner,
        rule: group.rule,
      });
    }
    const value = take === 'local' ? l : r;
    for (const f of group.fields) {
      merged[f] = value[f] ?? null;
      if (!sameJson(value[f], local[f])) toLocal[f] = value[f] ?? null;
      if (!sameJson(value[f], remote[f])) toRemote[f] = value[f] ?? null;
    }
  }
  return { merged, toLocal, toRemote, conflicts };
}

/** The groups whose value differs between two projections (what a push of a locally changed record sends). */
export function changedFields(spec: EntitySyncSpec, from: Projection, to: Projection): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const group of spec.groups) {
    if (sameJson(groupValue(from, group.fields), groupValue(to, group.fields))) continue;
    for (const f of group.fields) out[f] = to[f] ?? null;
  }
  return out;
}
