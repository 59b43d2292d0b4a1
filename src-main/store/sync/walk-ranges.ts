import type { Db } from '../db';

/**
 * The years a walk of a list read by date range must cover beyond its usual window (docs/decisions/0181): every year
 * a tracker entry of the team is dated in here, and every year one is dated in as last agreed with the remote — so
 * no record the remote holds as both sides last agreed lies outside the walk, and none is taken as absent for it.
 */
export function trackerEntryYears(db: Db, teamId: string, remoteId: string): number[] {
  return db
    .prepare(
      `SELECT DISTINCT CAST(substr(date, 1, 4) AS INTEGER) FROM tracker_entries WHERE team_id = ?
       UNION
       SELECT DISTINCT CAST(substr(json_extract(base_json, '$.date'), 1, 4) AS INTEGER) FROM sync_records
       WHERE remote_id = ? AND entity = 'tracker_entry' AND base_json IS NOT NULL`,
    )
    .pluck()
    .all(teamId, remoteId) as number[];
}

/** The linked records of an entity whose base names one of these local ids in `field` (an entry's project). */
export function linkedRecordsOf(db: Db, remoteId: string, entity: string, field: string, localIds: readonly string[]): string[] {
  return db
    .prepare(
      `SELECT local_id FROM sync_records WHERE remote_id = ? AND entity = ? AND remote_record_id IS NOT NULL
       AND json_extract(base_json, '$."' || ? || '"') IN (SELECT value FROM json_each(?))`,
    )
    .pluck()
    .all(remoteId, entity, field, JSON.stringify(localIds)) as string[];
}
