/**
 * `finops workflow …` through the real launcher on a real data dir, as a user would run it.
 *
 * @module-tag slow (spawns processes; left out of `npm run test:fast`)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/store/db';
import { ensureTeam } from '../../../src-main/store/teams/teams';
import { createUser } from '../../../src-main/store/users/users';
import { importWorkflow } from '../../../src-main/workflows/catalog';
import { startWorkflowRun } from '../../../src-main/workflows/dispatch';
import { WorkflowRunner } from '../../../src-main/workflows/runner';
import { FINOPS_BIN, ROOT, runCli } from '../../helpers/cli';
import { tmpDir } from '../../helpers/tmp';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const EXAMPLES = path.join(ROOT, 'resources/workflows');

describe('finops workflow', () => {
  it('imports (printing only the id), lists, starts, approves, and lists runs', () => {
    const dir = tmpDir('finops-wf-cli-');
    const wf = (...args: string[]) => runCli(['workflow', ...args, '--data-dir', dir, '--team', 'Acme']);

    const imported = wf('import', path.join(EXAMPLES, 'chat-assistant.json'), '--promote');
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(new RegExp(`^${UUID.source.slice(1, -1)}\\n$`));
    const id = imported.stdout.trim();

    const approval = path.join(dir, 'approval.json');
    fs.writeFileSync(
      approval,
      JSON.stringify({
        name: 'Ask first',
        triggers: [{ type: 'manual' }],
        nodes: [
          { id: 'ask', kind: 'approval', title: 'Go on with {{trigger.what}}?' },
          { id: 'tell', kind: 'notify', message: 'went on with {{trigger.what}}' },
        ],
        edges: [{ from: 'ask', to: 'tell', when: 'approved' }],
      }),
    );
    const draft = wf('import', approval).stdout.trim();
    expect(draft).toMatch(UUID);

    const list = wf('list');
    expect(list.status).toBe(0);
    const lines = list.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(lines).toContainEqual([id, 'Finance chat intake', 'active', 'api', 'v1', 'manual']);
    expect(lines).toContainEqual([draft, 'Ask first', 'inactive', 'no-api', 'draft', 'manual']);

    // A draft does not run; promoted and activated, it does.
    expect(wf('start', draft).stderr).toMatch(/inactive/);
    expect(wf('promote', draft).stdout).toBe(`${draft}\tpromoted v1\n`);
    expect(wf('activate', draft).stdout).toBe(`${draft}\tactive\n`);
    const started = wf('start', draft, '--data', '{"what":"the payment"}');
    expect(started.status, started.stderr).toBe(0);
    const [runId, status] = started.stdout.trim().split('\t');
    expect(runId).toMatch(UUID);
    expect(status).toBe('waiting');

    const waiting = wf('runs', '--status', 'waiting');
    expect(waiting.stdout.split('\t').slice(0, 4)).toEqual([runId, 'WR-1', 'Ask first', 'waiting']);
    expect(wf('approve', runId!, '--comment', 'ok').stdout).toBe(`${runId}\tcompleted\n`);
    expect(wf('approve', runId!).stderr).toMatch(/not waiting for an approval/);
    const shown = JSON.parse(wf('show', runId!).stdout);
    expect(shown.approvals[0]).toMatchObject({
      status: 'approved',
      decidedBy: 'cli',
      comment: 'ok',
      title: 'Go on with the payment?',
    });

    const second = wf('start', draft, '--no-run').stdout.trim().split('\t');
    expect(second[1]).toBe('pending');
    expect(wf('cancel', second[0]!).stdout).toBe(`${second[0]}\tcanceled\n`);
    expect(wf('cancel', second[0]!).status).toBe(1);
    expect(wf('deactivate', draft).stdout).toBe(`${draft}\tinactive\n`);
  }, 120_000);

  it('refuses an invalid definition with each problem listed, and usage errors with exit 2', () => {
    const dir = tmpDir('finops-wf-cli-');
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(
      bad,
      JSON.stringify({
        name: 'Rude',
        triggers: [{ type: 'manual' }],
        nodes: [{ id: 'r', kind: 'send_invoice_reminder', invoiceId: '{{trigger.invoiceId}}' }],
      }),
    );
    const res = runCli(['workflow', 'import', '--data-dir', dir, '--team', 'Acme', bad]);
    expect(res.status).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/is not a valid workflow:\n {2}- .*"r" \(send_invoice_reminder\) reaches the customer/);

    expect(runCli(['workflow', 'import', '--data-dir', dir, '--team', 'Acme', path.join(dir, 'missing.json')]).status).toBe(2);
    expect(runCli(['workflow', 'start', 'x', '--data-dir', dir, '--team', 'Acme', '--data', '[1]']).status).toBe(2);
    // A team that does not exist is a runtime failure like in every other command (exit 1, "team Nobody not found").
    const nobody = runCli(['workflow', 'runs', '--data-dir', dir, '--team', 'Nobody']);
    expect(nobody.status).toBe(1);
    expect(nobody.stderr).toBe('error: team Nobody not found\n');
  }, 60_000);

  it('makes one execution when several processes start with one key at once', async () => {
    const dir = tmpDir('finops-wf-cli-');
    const id = runCli([
      'workflow',
      'import',
      path.join(EXAMPLES, 'chat-assistant.json'),
      '--promote',
      '--data-dir',
      dir,
      '--team',
      'Acme',
    ]).stdout.trim();
    const starts = await Promise.all(
      Array.from(
        { length: 4 },
        () =>
          new Promise<string>((resolve, reject) => {
            const child = spawn(FINOPS_BIN, [
              'workflow',
              'start',
              id,
              '--idempotency-key',
              'same',
              '--no-run',
              '--data-dir',
              dir,
              '--team',
              'Acme',
            ]);
            let out = '';
            child.stdout.on('data', (c: Buffer) => {
              out += c.toString();
            });
            child.once('exit', (code) => (code === 0 ? resolve(out.split('\t')[0] ?? '') : reject(new Error(`exit ${code}`))));
          }),
      ),
    );
    expect(new Set(starts).size).toBe(1);
    const runs = runCli(['workflow', 'runs', '--data-dir', dir, '--team', 'Acme']).stdout.trim().split('\n');
    expect(runs).toHaveLength(1);
  }, 60_000);

  it('approve refuses a run the command line started while the team has other eyes; reject does not (0179)', async () => {
    const dir = tmpDir('finops-wf-cli-');
    const db = openDatabase(dir);
    const team = ensureTeam(db, 'Acme');
    createUser(db, team.id, { email: 'ann@acme.test', passwordHash: 'x' });
    createUser(db, team.id, { email: 'bob@acme.test', passwordHash: 'x' });
    const id = importWorkflow(
      db,
      team.id,
      {
        name: 'Ask first',
        active: true,
        triggers: [{ type: 'manual' }],
        nodes: [
          { id: 'ask', kind: 'approval', title: 'Go on?' },
          { id: 'tell', kind: 'notify', message: 'went on' },
        ],
        edges: [{ from: 'ask', to: 'tell', when: 'approved' }],
      },
      { promote: true },
    ).workflowId;
    const byKey = startWorkflowRun(db, team.id, id, {
      triggerType: 'manual',
      triggerData: {},
      source: 'api',
      requireApiExecution: false,
      startedBy: 'api-key:someone-else',
    });
    await new WorkflowRunner(db, { schedules: false }).runUntilIdle();
    db.close();
    const wf = (...args: string[]) => runCli(['workflow', ...args, '--data-dir', dir, '--team', 'Acme']);

    const [runId] = wf('start', id).stdout.trim().split('\t');
    const refused = wf('approve', runId!);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/Run WR-2 was started by you: someone else approves it/);
    expect(wf('reject', runId!).stdout).toBe(`${runId}\tcompleted\n`);
    expect(JSON.parse(wf('show', runId!).stdout)).toMatchObject({
      startedBy: 'cli',
      approvals: [{ status: 'rejected', decidedBy: 'cli' }],
    });
    // A run someone else started is the operator's to approve, and the run says who started and who approved it.
    expect(wf('approve', byKey.id).stdout).toBe(`${byKey.id}\tcompleted\n`);
    expect(JSON.parse(wf('show', byKey.id).stdout)).toMatchObject({
      startedBy: 'api-key:someone-else',
      approvals: [{ status: 'approved', decidedBy: 'cli' }],
    });
  }, 60_000);

  it('prints and rotates the webhook secret of a workflow', () => {
    const dir = tmpDir('finops-wf-cli-');
    const wf = (...args: string[]) => runCli(['workflow', ...args, '--data-dir', dir, '--team', 'Acme']);
    const id = wf('import', path.join(EXAMPLES, 'webhook-only.json'), '--promote').stdout.trim();
    const secret = wf('webhook-secret', id).stdout.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const rotated = wf('webhook-secret', id, '--rotate').stdout.trim();
    expect(rotated).not.toBe(secret);
    expect(wf('webhook-secret', id).stdout.trim()).toBe(rotated);
    // Another team cannot read it.
    expect(runCli(['workflow', 'webhook-secret', id, '--data-dir', dir, '--team', 'Acme']).status).toBe(0);
    runCli(['token', 'create', '--data-dir', dir, '--team', 'Globex']);
    const other = runCli(['workflow', 'webhook-secret', id, '--data-dir', dir, '--team', 'Globex']);
    expect(other.status).toBe(1);
    expect(other.stdout).toBe('');
  }, 60_000);

  it('approve runs the rest of a workflow with the team’s HTTP allow-list, set from the command line', async () => {
    const received: string[] = [];
    const receiver = http.createServer((req, res) => {
      received.push(`${req.method} ${req.url}`);
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const host = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    try {
      const dir = tmpDir('finops-wf-cli-');
      const wf = (...args: string[]) => runCli(['workflow', ...args, '--data-dir', dir, '--team', 'Acme']);
      const file = path.join(dir, 'http.json');
      fs.writeFileSync(
        file,
        JSON.stringify({
          name: 'Ask, then call',
          active: true,
          triggers: [{ type: 'manual' }],
          nodes: [
            { id: 'ask', kind: 'approval', title: 'Call?' },
            { id: 'call', kind: 'http_request', method: 'PUT', url: `http://${host}/done` },
          ],
          edges: [{ from: 'ask', to: 'call', when: 'approved' }],
        }),
      );
      const id = wf('import', file, '--promote').stdout.trim();
      expect(wf('http-hosts', '--set', `${host.toUpperCase()},example.org`).stdout).toBe(`${host}\nexample.org\n`);
      expect(wf('http-hosts', '--remove', 'example.org').stdout).toBe(`${host}\n`);
      const bad = wf('http-hosts', '--add', 'https://evil.example/');
      expect(bad.status).not.toBe(0);
      expect(bad.stderr).toContain('httpHosts[1]');
      const runId = wf('start', id).stdout.split('\t')[0]!;
      // The command runs the approved rest in its own process (the receiver answers from this one meanwhile).
      const approved = await new Promise<string>((resolve, reject) => {
        const child = spawn(FINOPS_BIN, ['workflow', 'approve', runId, '--data-dir', dir, '--team', 'Acme']);
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
        });
        child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}`))));
      });
      expect(approved).toBe(`${runId}\tcompleted\n`);
      expect(received).toEqual(['PUT /done']);
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  }, 60_000);
});
