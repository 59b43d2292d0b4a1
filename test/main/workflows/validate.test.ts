import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../../src-main/workflows/conditions';
import { httpTargetProblem } from '../../../src-main/workflows/effects';
import { type RunContext, renderTemplate } from '../../../src-main/workflows/templates';
import { entryNode, type ProblemCode, validateDefinition } from '../../../src-main/workflows/validate';
import { workflowJsonSchema } from '../../../src-shared/contract/workflow-definition';
import { ROOT } from '../../helpers/cli';
import { definition } from './fixtures';

function problems(def: unknown): ProblemCode[] {
  const v = validateDefinition(def);
  return v.ok ? [] : v.problems.map((p) => p.code);
}

const reminder = { id: 'remind', kind: 'send_invoice_reminder', invoiceId: '{{trigger.invoiceId}}' };
const ask = (extra: Record<string, unknown> = {}) => ({ id: 'ask', kind: 'approval', title: 'Remind?', ...extra });

describe('workflow definition validation', () => {
  it('accepts the examples in resources/workflows and fills defaults', () => {
    const dir = path.join(ROOT, 'resources/workflows');
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files).toEqual(expect.arrayContaining(['invoice-reminder.json', 'webhook-only.json', 'chat-assistant.json']));
    for (const f of files) {
      const v = validateDefinition(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
      expect(v.ok ? [] : v.problems, f).toEqual([]);
    }
    const v = validateDefinition(definition());
    expect(v.ok && v.definition.settings.maxSteps).toBe(100);
  });

  it('docs/workflow-schema.json is the JSON Schema of the format, as generated from the contract', () => {
    const file = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs/workflow-schema.json'), 'utf8'));
    expect(file).toEqual(JSON.parse(JSON.stringify(workflowJsonSchema())));
  });

  it.each([
    ['a reminder with no approval before it', { nodes: [reminder] }, 'reminder_without_approval'],
    [
      'a reminder reachable around the approval through a condition',
      {
        nodes: [{ id: 'c', kind: 'condition', if: { path: 'trigger.x', op: 'exists' } }, ask(), reminder],
        edges: [
          { from: 'c', to: 'ask', when: 'true' },
          { from: 'c', to: 'remind', when: 'false' },
          { from: 'ask', to: 'remind', when: 'approved' },
        ],
      },
      'reminder_without_approval',
    ],
    [
      'a reminder after the approval’s rejected edge',
      { nodes: [ask(), reminder], edges: [{ from: 'ask', to: 'remind', when: 'rejected' }] },
      'reminder_without_approval',
    ],
    [
      'a reminder after an approval that approves by itself at its deadline',
      {
        nodes: [ask({ deadline: { afterSeconds: 60, outcome: 'approved' } }), reminder],
        edges: [{ from: 'ask', to: 'remind', when: 'approved' }],
      },
      'reminder_without_approval',
    ],
    ['two nodes with one id', { nodes: [ask(), ask()] }, 'duplicate_node'],
    ['an edge to nowhere', { nodes: [ask()], edges: [{ from: 'ask', to: 'gone', when: 'approved' }] }, 'unknown_node'],
    [
      'an unlabelled edge leaving a condition',
      {
        nodes: [{ id: 'c', kind: 'condition', if: { path: 'trigger.x', op: 'exists' } }, ask()],
        edges: [{ from: 'c', to: 'ask' }],
      },
      'edge_label',
    ],
    [
      'a plain node with two ways out',
      {
        nodes: [{ id: 'n', kind: 'chat_reply', text: 'x' }, ask(), { id: 'o', kind: 'chat_reply', text: 'y' }],
        edges: [
          { from: 'n', to: 'ask' },
          { from: 'n', to: 'o' },
        ],
      },
      'edge_label',
    ],
    ['two possible entry nodes', { nodes: [ask(), { id: 'n', kind: 'chat_reply', text: 'x' }] }, 'entry'],
    [
      'a loop with no way in',
      {
        nodes: [
          { id: 'a', kind: 'chat_reply', text: 'x' },
          { id: 'b', kind: 'chat_reply', text: 'y' },
        ],
        edges: [
          { from: 'a', to: 'b' },
          { from: 'b', to: 'a' },
        ],
      },
      'entry',
    ],
    [
      'a node no path reaches',
      {
        start: 'a',
        nodes: [
          { id: 'a', kind: 'chat_reply', text: 'x' },
          { id: 'b', kind: 'chat_reply', text: 'y' },
        ],
      },
      'unreachable_node',
    ],
    [
      'a field workflows may not set',
      {
        nodes: [
          { id: 'u', kind: 'update_record', resource: 'customer', recordId: '{{trigger.customerId}}', field: 'name', value: 'x' },
        ],
      },
      'update_field',
    ],
    ['a cron that cannot be read', { triggers: [{ type: 'schedule', cron: '61 * * * *' }] }, 'schedule'],
    [
      'a time zone that does not exist',
      { triggers: [{ type: 'schedule', cron: '0 9 * * 1', timezone: 'Mars/Olympus' }] },
      'schedule',
    ],
    ['a trigger declared twice', { triggers: [{ type: 'manual' }, { type: 'manual' }] }, 'duplicate_trigger'],
    [
      'a template reading outside the run',
      { nodes: [{ id: 'n', kind: 'chat_reply', text: '{{process.env.HOME}}' }] },
      'template',
    ],
    ['a typo in a key', { nodes: [{ id: 'n', kind: 'chat_reply', txt: 'x' }] }, 'schema'],
    ['an unknown node kind', { nodes: [{ id: 'n', kind: 'shell', command: 'rm -rf /' }] }, 'schema'],
    ['no triggers', { triggers: [] }, 'schema'],
  ])('refuses %s', (_label, overrides, code) => {
    expect(problems(definition(overrides as never))).toContain(code);
  });

  it('accepts a reminder behind an approval on every path, and a loop with an explicit start', () => {
    expect(
      problems(
        definition({
          nodes: [
            { id: 'c', kind: 'condition', if: { path: 'trigger.x', op: 'exists' } },
            ask(),
            { ...ask(), id: 'ask2' },
            reminder,
          ] as never,
          edges: [
            { from: 'c', to: 'ask', when: 'true' },
            { from: 'c', to: 'ask2', when: 'false' },
            { from: 'ask', to: 'remind', when: 'approved' },
            { from: 'ask2', to: 'remind', when: 'approved' },
          ],
        }),
      ),
    ).toEqual([]);
    const loop = validateDefinition(
      definition({
        start: 'a',
        nodes: [
          { id: 'a', kind: 'condition', if: { path: 'trigger.again', op: 'eq', value: true } },
          { id: 'b', kind: 'chat_reply', text: 'y' },
        ],
        edges: [
          { from: 'a', to: 'b', when: 'true' },
          { from: 'b', to: 'a' },
        ],
      }),
    );
    expect(loop.ok && entryNode(loop.definition)).toBe('a');
  });
});

describe('templates and conditions', () => {
  const ctx: RunContext = {
    trigger: { invoiceId: 'inv_1', amount: 1200, tags: ['a', 'b'], nested: { x: 1 } },
    vars: { invoice: { status: 'overdue', number: 'INV-7' } },
    run: { id: 'r', number: 3, workflowId: 'w' },
    triggerType: 'manual',
  };

  it('keeps the type of a whole placeholder and writes text inside longer strings', () => {
    expect(renderTemplate('{{trigger.amount}}', ctx)).toBe(1200);
    expect(renderTemplate('{{ trigger.nested }}', ctx)).toEqual({ x: 1 });
    expect(renderTemplate('Invoice {{vars.invoice.number}} ({{trigger.amount}}) {{trigger.missing}}!', ctx)).toBe(
      'Invoice INV-7 (1200) !',
    );
    expect(renderTemplate('{{trigger.__proto__}}', ctx)).toBeUndefined();
  });

  it.each([
    [{ path: 'trigger.amount', op: 'gte', value: 1200 }, true],
    [{ path: 'trigger.amount', op: 'gt', value: '1000' }, false],
    [{ path: 'vars.invoice.status', op: 'in', value: ['unpaid', 'overdue'] }, true],
    [{ path: 'trigger.tags', op: 'contains', value: 'b' }, true],
    [{ path: 'trigger.missing', op: 'exists' }, false],
    [{ not: { path: 'trigger.missing', op: 'exists' } }, true],
    [
      {
        all: [
          { path: 'triggerType', op: 'eq', value: 'manual' },
          { path: 'run.number', op: 'lt', value: 3 },
        ],
      },
      false,
    ],
    [
      {
        any: [
          { path: 'triggerType', op: 'ne', value: 'manual' },
          { path: 'trigger.nested', op: 'eq', value: { x: 1 } },
        ],
      },
      true,
    ],
  ])('evaluates %j as %s', (condition, expected) => {
    expect(evaluate(condition as never, ctx)).toBe(expected);
  });
});

describe('HTTP allow-list', () => {
  const allowed = ['hooks.example.com', '127.0.0.1:8080', '[::1]:9000', 'plain.example.com:80'];
  it.each([
    ['https://hooks.example.com/x', undefined],
    ['https://hooks.example.com:443/x', undefined],
    ['http://hooks.example.com/x', undefined],
    // An entry without a port allows only the scheme's default port.
    ['https://hooks.example.com:8443/x', /not on the allow-list/],
    ['http://hooks.example.com:22/', /only port 80/],
    ['http://plain.example.com/', undefined],
    ['https://plain.example.com/', /not on the allow-list/],
    ['http://[::1]:9000/', undefined],
    ['http://[::1]:9001/', /not on the allow-list/],
    ['https://HOOKS.example.com./x', /not on the allow-list/],
    ['http://127.0.0.1:8080/ok', undefined],
    ['http://127.0.0.1:8081/ok', /not on the allow-list/],
    ['https://hooks.example.com.evil.test/', /not on the allow-list/],
    ['https://evil.test/?next=https://hooks.example.com', /not on the allow-list/],
    ['https://user:pw@hooks.example.com/', /credentials/],
    ['file:///etc/passwd', /only http and https/],
    ['not a url', /not a URL/],
  ])('%s', (url, expected) => {
    const problem = httpTargetProblem(url, allowed);
    if (expected) expect(problem).toMatch(expected);
    else expect(problem).toBeUndefined();
  });
  it('is off when the list is empty', () => {
    expect(httpTargetProblem('https://hooks.example.com/', [])).toMatch(/HTTP calls are off/);
  });
});
