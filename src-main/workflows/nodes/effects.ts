import type { WorkflowNode } from '../../../src-shared/contract/workflow-definition';
import { createWorkflowNotification, recordExists } from '../../store/workflows/records';
import { renderJson, renderText } from '../templates';
import { notFoundMessage, recordIdOf } from './records';
import type { NodeImpl } from './types';

/** Nodes whose effect stays in this database: a notification, a queued reminder, a chat reply. */

type Of<K extends WorkflowNode['kind']> = Extract<WorkflowNode, { kind: K }>;

export const notify: NodeImpl<Of<'notify'>> = {
  mode: 'local',
  // The notification is created at most once per effect key (store/workflow-records.ts).
  idempotent: () => true,
  run: (node, c) => {
    const notificationId = createWorkflowNotification(c.db, c.teamId, {
      key: c.effectKey,
      runId: c.runId,
      workflowId: c.workflowId,
      type: node.type,
      priority: node.priority,
      message: renderText(node.message, c.run).slice(0, 4000),
      metadata: (renderJson(node.metadata ?? {}, c.run) ?? {}) as Record<string, unknown>,
    });
    return { kind: 'next', output: { notificationId } };
  },
};

/** Customer-facing: validation guarantees an approval came first on every path to it. */
export const sendInvoiceReminder: NodeImpl<Of<'send_invoice_reminder'>> = {
  mode: 'local',
  // The delivery queue takes the effect key as its idempotency key: a second call queues nothing more.
  idempotent: () => true,
  run: (node, c) => {
    const queue = c.ports.queueInvoiceReminder;
    if (!queue) {
      return { kind: 'fail', message: 'invoice reminders are not available yet: the invoice delivery queue is not wired' };
    }
    const id = recordIdOf(node.invoiceId, c, 'invoice');
    if (typeof id !== 'string') return id;
    if (!recordExists(c.db, c.teamId, 'invoice', id)) return { kind: 'fail', message: notFoundMessage('invoice', id) };
    const queued = queue(c.db, c.teamId, id, { idempotencyKey: c.effectKey });
    return { kind: 'next', output: { invoiceId: id, queued: queued ?? null } };
  },
};

/** The reply is kept with the step (never returned by the public API; the spec says so). */
export const chatReply: NodeImpl<Of<'chat_reply'>> = {
  mode: 'local',
  idempotent: () => true,
  run: (node, c) => ({
    kind: 'next',
    output: { reply: renderText(node.text, c.run).slice(0, 8000), conversationId: c.run.trigger.conversationId ?? null },
  }),
};
