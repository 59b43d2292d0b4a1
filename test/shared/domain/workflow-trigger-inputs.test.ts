import { describe, expect, it } from 'vitest';
import chat from '../../../resources/workflows/chat-assistant.json';
import reminder from '../../../resources/workflows/invoice-reminder.json';
import webhook from '../../../resources/workflows/webhook-only.json';
import digest from '../../../resources/workflows/weekly-overdue-digest.json';
import { WorkflowDefinition } from '../../../src-shared/contract/workflow-definition';
import { triggerInputs } from '../../../src-shared/domain/workflow-trigger-inputs';

const def = (json: unknown) => WorkflowDefinition.parse(json);

describe('triggerInputs', () => {
  it('asks a reminder run for its invoice: the first node loads it, so every run needs it', () => {
    expect(triggerInputs(def(reminder), 'manual')).toEqual([{ key: 'invoiceId', resource: 'invoice', required: true }]);
    expect(triggerInputs(def(reminder), 'invoice_overdue')).toEqual([{ key: 'invoiceId', resource: 'invoice', required: true }]);
  });

  it('offers what a branch reads without requiring it, and plain values as text', () => {
    expect(triggerInputs(def(chat), 'manual')).toEqual([
      { key: 'message', resource: null, required: false },
      { key: 'conversationId', resource: null, required: false },
    ]);
    // The customer is loaded only after a condition checked it exists.
    expect(triggerInputs(def(webhook), 'webhook')).toEqual([
      { key: 'customerId', resource: 'customer', required: false },
      { key: 'amount', resource: null, required: false },
      { key: 'currency', resource: null, required: false },
      { key: 'reason', resource: null, required: false },
      { key: 'reference', resource: null, required: false },
    ]);
    expect(triggerInputs(def(digest), 'schedule')).toEqual([{ key: 'scheduledFor', resource: null, required: false }]);
  });

  it('puts what the trigger type needs first, and a record node after a wait still counts as certain', () => {
    const d = def({
      name: 'x',
      triggers: [{ type: 'customer_segment_entered' }, { type: 'manual' }],
      nodes: [
        { id: 'pause', kind: 'wait', seconds: 60 },
        {
          id: 'note',
          kind: 'update_record',
          resource: 'transaction',
          recordId: '{{ trigger.transactionId }}',
          field: 'note',
          value: 'x',
        },
      ],
      edges: [{ from: 'pause', to: 'note' }],
    });
    expect(triggerInputs(d, 'customer_segment_entered')).toEqual([
      { key: 'customerId', resource: 'customer', required: true },
      { key: 'transactionId', resource: 'transaction', required: true },
    ]);
    expect(triggerInputs(d, 'manual')).toEqual([{ key: 'transactionId', resource: 'transaction', required: true }]);
  });
});
