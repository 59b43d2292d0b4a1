/**
 * Conflicts keep their rule as a code with params beside the English sentence (docs/decisions/0193-conflict-rule-codes.md):
 * recorded by the store, answered by /app/sync/conflicts (checked against the contract), written by a real round, and
 * rows from before codes (or with a code this build does not know) read with none.
 */
import { describe, expect, it } from 'vitest';
import { listConflicts, type NewConflict, recordConflict } from '../../../../src-main/store/sync/conflicts';
import { ensureRemote } from '../../../../src-main/store/sync/remotes';
import { codedRule } from '../../../../src-shared/domain/sync/conflict-rules';
import { makeTestApi } from '../../../helpers/api';
import { remoteReplica, replica, syncOnce } from '../../sync/helpers';

function refusal(teamId: string, remoteId: string, localId: string): NewConflict {
  return {
    teamId,
    remoteId,
    entity: 'tag',
    localId,
    kind: 'refused',
    group: 'update',
    fields: ['name'],
    base: null,
    local: { name: 'Trips' },
    remote: { name: 'Journeys' },
    rule: 'the remote refused the change (422): name is taken; this side keeps its values',
    ...codedRule('refused_by_remote_change_kept', { status: 422, message: 'name is taken' }),
    winner: 'local',
  };
}

describe('sync conflict rule codes', () => {
  it('records the code and params, answers them beside the English rule, and reads old rows without one', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const teamId = api.team('Acme').id;
    const remote = ensureRemote(api.db, teamId, { baseUrl: 'http://127.0.0.1:9/v1', kind: 'finops' });
    expect(recordConflict(api.db, refusal(teamId, remote.id, 'tag-1'))).toBe(true);
    const { ruleCode: _c, ruleParams: _p, ...uncoded } = refusal(teamId, remote.id, 'tag-2');
    expect(recordConflict(api.db, uncoded)).toBe(true);
    expect(recordConflict(api.db, refusal(teamId, remote.id, 'tag-3'))).toBe(true);
    // A newer build's code this one does not know: its params are not trusted either.
    api.db
      .prepare(`UPDATE sync_conflicts SET rule_code = 'from_a_newer_build', rule_params = '{"x":1}' WHERE local_id = 'tag-3'`)
      .run();

    const byRecord = new Map(listConflicts(api.db, teamId).map((c) => [c.localId, c]));
    expect(byRecord.get('tag-1')).toMatchObject({
      ruleCode: 'refused_by_remote_change_kept',
      ruleParams: { status: 422, message: 'name is taken' },
      rule: expect.stringContaining('the remote refused the change (422)'),
    });
    expect(byRecord.get('tag-2')).toMatchObject({ ruleCode: null, ruleParams: null });
    expect(byRecord.get('tag-3')).toMatchObject({ ruleCode: null, ruleParams: null });

    const res = await api.call('GET', '/app/sync/conflicts', { token });
    expect(res.statusCode, res.body).toBe(200);
    const answered = new Map(
      (res.json().data as { recordId: string; rule: string; ruleCode: unknown; ruleParams: unknown }[]).map((c) => [
        c.recordId,
        c,
      ]),
    );
    expect(answered.get('tag-1')).toMatchObject({
      ruleCode: 'refused_by_remote_change_kept',
      ruleParams: { status: 422, message: 'name is taken' },
    });
    expect(answered.get('tag-2')).toMatchObject({ ruleCode: null, ruleParams: null, rule: uncoded.rule });
  });

  it('a round writes the group rule that decided as its code', async () => {
    const remote = await remoteReplica();
    const local = await replica();
    const tag = (await remote.call('POST', '/v1/tags', { name: 'Travel' })).body;
    await syncOnce(local, remote);
    await local.call('PATCH', `/v1/tags/${tag.id}`, { name: 'Trips' });
    await remote.call('PATCH', `/v1/tags/${tag.id}`, { name: 'Journeys' });
    await syncOnce(local, remote);
    expect(listConflicts(local.api.db, local.teamId)).toEqual([
      expect.objectContaining({
        localId: tag.id,
        kind: 'fields',
        rule: 'remote wins: the shared copy holds the facts everyone works from',
        ruleCode: 'remote_holds_shared_facts',
        ruleParams: null,
      }),
    ]);
  });
});
