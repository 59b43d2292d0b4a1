/**
 * The rule proposed from an import batch's rows: the uncategorised rows' most frequent counterparty (grouped as the
 * rule engine compares text), else their most frequent name, else the first row's payee said as such; the category
 * from the payee's categorised rows of the batch, else from the suggestions; and the draft accepted by the API.
 */
import { describe, expect, it } from 'vitest';
import { inputOf } from '../../../../src-renderer/screens/rules/rule-draft';
import {
  type BatchRow,
  proposalDraft,
  proposeCategory,
  proposeConditions,
} from '../../../../src-renderer/screens/rules/rule-from-batch';
import { RuleInput } from '../../../../src-shared/contract/rules';

let n = 0;
const row = (counterparty: string | null, name: string, category: string | null = null): BatchRow => ({
  id: `t${++n}`,
  counterparty_name: counterparty,
  name,
  category,
});

describe('proposeConditions', () => {
  it("takes the uncategorised rows' most frequent counterparty, grouped as the engine compares text", () => {
    const rows = [
      row('Stadtwerke', 'Strom'),
      row('Cloud Hosting AG', 'Server'),
      row('cloud  hosting ag ', 'Backup'),
      row('Cloud Hosting AG', 'Domain'),
      row('Stadtwerke', 'Gas'),
      row('Stadtwerke', 'Wasser', 'utilities'),
    ];
    const p = proposeConditions(rows);
    expect(p).toMatchObject({ basis: 'counterparty', field: 'counterparty', value: 'Cloud Hosting AG', considered: 5 });
    expect(p?.uncategorisedOnly).toBe(true);
    expect(p?.rowIds).toEqual([rows[1]!.id, rows[2]!.id, rows[3]!.id]);
  });

  it('breaks a tie by the payee the batch names first', () => {
    const rows = [row('Bahn', 'a'), row('Post', 'b'), row('Post', 'c'), row('Bahn', 'd')];
    expect(proposeConditions(rows)?.value).toBe('Bahn');
  });

  it('falls back to a shared name when no counterparty is shared', () => {
    const rows = [row(null, 'SEPA Lastschrift Miete'), row('Stadtwerke', 'Strom'), row(null, 'sepa lastschrift miete')];
    expect(proposeConditions(rows)).toMatchObject({ basis: 'name', field: 'name', value: 'SEPA Lastschrift Miete' });
  });

  it("starts from the first row's payee when the rows share nothing, and says so", () => {
    const rows = [row('Kaffeeroesterei Nord', 'Kartenzahlung'), row('Bahn', 'Fahrkarte'), row(null, 'Miete')];
    const p = proposeConditions(rows);
    expect(p).toMatchObject({ basis: 'firstRow', field: 'counterparty', value: 'Kaffeeroesterei Nord', considered: 3 });
    expect(p?.rowIds).toEqual([rows[0]!.id]);
    const nameOnly = proposeConditions([row(null, 'Miete'), row(null, 'Strom')]);
    expect(nameOnly).toMatchObject({ basis: 'firstRow', field: 'name', value: 'Miete' });
  });

  it('takes a single row as shared with itself', () => {
    expect(proposeConditions([row('Bahn', 'Fahrkarte')])).toMatchObject({ basis: 'counterparty', value: 'Bahn' });
  });

  it('considers every row when all have a category, and proposes nothing for an empty batch', () => {
    const rows = [row('Bahn', 'a', 'travel'), row('Bahn', 'b', 'travel'), row('Post', 'c', 'office')];
    expect(proposeConditions(rows)).toMatchObject({ value: 'Bahn', considered: 3, uncategorisedOnly: false });
    expect(proposeConditions([])).toBeNull();
  });
});

describe('proposeCategory', () => {
  const rows = [
    row('Cloud Hosting AG', 'Server'),
    row('Cloud Hosting AG', 'Backup', 'software'),
    row('CLOUD HOSTING AG', 'Domain', 'software'),
    row('Cloud Hosting AG', 'Support', 'consulting'),
    row('Stadtwerke', 'Strom', 'utilities'),
  ];
  const proposal = proposeConditions(rows)!;

  it("takes the category most of the payee's categorised rows in the batch have", () => {
    expect(proposeCategory(rows, proposal, ['travel'])).toEqual({ slug: 'software', source: 'batch' });
  });

  it('else the category suggested for most of its rows, ignoring abstentions', () => {
    const open = [row('Bahn', 'a'), row('Bahn', 'b'), row('Bahn', 'c')];
    const p = proposeConditions(open)!;
    expect(proposeCategory(open, p, [null, 'travel', null, 'office', 'travel'])).toEqual({ slug: 'travel', source: 'suggested' });
    expect(proposeCategory(open, p, [null, null])).toEqual({ slug: null, source: null });
    expect(proposeCategory(open, p)).toEqual({ slug: null, source: null });
  });
});

describe('proposalDraft', () => {
  it('is "payee is X and no category → categorise as Y", which the API accepts', () => {
    const p = proposeConditions([row('Cloud Hosting AG', 'Server'), row('Cloud Hosting AG', 'Backup')])!;
    const parsed = inputOf(proposalDraft(p, 'software', 'Cloud Hosting AG → Software'));
    expect(parsed.input).toEqual({
      name: 'Cloud Hosting AG → Software',
      stage: 'default',
      enabled: true,
      conditions: {
        all: [
          { field: 'counterparty', op: 'is', value: 'Cloud Hosting AG' },
          { field: 'category', op: 'empty' },
        ],
      },
      actions: [{ type: 'set_category', categorySlug: 'software' }],
      applyOn: ['import', 'create'],
    });
    expect(RuleInput.safeParse(parsed.input).success).toBe(true);
  });

  it('leaves the category to choose when none is proposed: the draft says it is missing', () => {
    const p = proposeConditions([row(null, 'Miete')])!;
    const draft = proposalDraft(p, null, 'Miete');
    expect(draft.actions[0]).toMatchObject({ type: 'set_category', categorySlug: '' });
    expect(Object.values(inputOf(draft).errors ?? {})).toEqual(['required']);
  });
});
