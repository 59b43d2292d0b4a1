import type { NodeKind, WorkflowNode } from '../../../src-shared/contract/workflow-definition';
import { chatReply, notify, sendInvoiceReminder } from './effects';
import { approval, condition, wait } from './flow';
import { httpRequest } from './http-request';
import { loadRecordNode, updateRecordNode } from './records';
import type { NodeImpl } from './types';

/** Every node kind of the definition format and what runs it. */
const NODES: { [K in NodeKind]: NodeImpl<Extract<WorkflowNode, { kind: K }>> } = {
  condition,
  approval,
  notify,
  update_record: updateRecordNode,
  send_invoice_reminder: sendInvoiceReminder,
  wait,
  chat_reply: chatReply,
  http_request: httpRequest,
  load_record: loadRecordNode,
};

export function nodeImpl(node: WorkflowNode): NodeImpl {
  return NODES[node.kind] as NodeImpl;
}

export type { NodeContext, NodeImpl, Outcome } from './types';
