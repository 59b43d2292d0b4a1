import { describe, expect, it } from 'vitest';
import { DEMO_WORKFLOWS, importDemoWorkflows } from '../../../src-main/demo/workflows';
import { openDatabase } from '../../../src-main/store/db';
import { ensureTeam } from '../../../src-main/store/teams/teams';
import { listWorkflows } from '../../../src-main/store/workflows/workflows';
import { tmpDir } from '../../helpers/tmp';

describe('the demo’s workflows', () => {
  it('imports and promotes every example once, ready to run; a second demo does not double them', () => {
    const db = openDatabase(tmpDir());
    const team = ensureTeam(db, 'Demo Agency').id;
    expect(importDemoWorkflows(db, team)).toBe(DEMO_WORKFLOWS.length);
    const list = listWorkflows(db, team, { pageSize: 100 }).data;
    expect(list.map((w) => w.name).sort()).toEqual([
      'Finance chat intake',
      'Invoice reminder',
      'Payment failed (webhook)',
      'Weekly reminder to review overdue invoices',
    ]);
    for (const w of list) expect(w).toMatchObject({ active: true, promotedVersion: 1 });
    expect(importDemoWorkflows(db, team)).toBe(0);
    expect(listWorkflows(db, team, { pageSize: 100 }).data).toHaveLength(4);
    db.close();
  });
});
