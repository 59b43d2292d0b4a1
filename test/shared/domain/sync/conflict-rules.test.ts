/**
 * The closed list of conflict rule codes (src-shared/domain/sync/conflict-rules.ts): every code reads in English and German,
 * each sentence has the slots its params fill and no others, and every field group's stated default has a code.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFLICT_RULE_CODES, codedRule, groupRule } from '../../../../src-shared/domain/sync/conflict-rules';
import { SYNC_SPECS } from '../../../../src-shared/domain/sync/fields';

const ROOT = path.resolve(import.meta.dirname, '../../../..');

function rulesOf(language: string): Record<string, string> {
  const file = path.join(ROOT, 'src-renderer', 'i18n', language, 'sync.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { rules: Record<string, string> }).rules;
}

/** `{{failures, num}}` → `failures`. */
function slots(sentence: string): string[] {
  return [...sentence.matchAll(/\{\{\s*(\w+)[^}]*\}\}/g)].map((m) => m[1] as string).sort();
}

describe('conflict rule codes', () => {
  const en = rulesOf('en');
  const de = rulesOf('de');

  it('has an English and a German sentence for every code, and none for a code not in the list', () => {
    for (const code of CONFLICT_RULE_CODES) {
      expect(en[code], `en ${code}`).toMatch(/\S/);
      expect(de[code], `de ${code}`).toMatch(/\S/);
      expect(de[code], `de ${code} is not translated`).not.toBe(en[code]);
    }
    expect(Object.keys(en).sort()).toEqual([...CONFLICT_RULE_CODES].sort());
    expect(Object.keys(de).sort()).toEqual([...CONFLICT_RULE_CODES].sort());
  });

  it('has the same slots in both languages', () => {
    for (const code of CONFLICT_RULE_CODES) expect(slots(de[code] ?? ''), code).toEqual(slots(en[code] ?? ''));
  });

  it.each([
    [codedRule('given_up_after_failures', { failures: 5, message: 'upstream timeout' }), ['failures', 'message']],
    [codedRule('refused_by_remote_delete_kept', { status: 409, message: 'in use' }), ['message', 'status']],
    [codedRule('draft_number_yielded', { invoiceNumber: 'INV-0007' }), ['invoiceNumber']],
    [codedRule('remote_merged_records'), []],
  ])('fills every slot of the sentence from its params: %o', (coded, expected) => {
    expect(Object.keys(coded.ruleParams ?? {}).sort()).toEqual(expected);
    expect(slots(en[coded.ruleCode] ?? '')).toEqual(expected);
  });

  it('has a code for every field group’s stated default', () => {
    const rules = new Set(Object.values(SYNC_SPECS).flatMap((spec) => spec.groups.map((g) => g.rule)));
    expect(rules.size).toBeGreaterThan(3);
    for (const rule of rules) expect(groupRule(rule).ruleCode, rule).not.toBeNull();
    expect(groupRule('a sentence no group states')).toEqual({ ruleCode: null, ruleParams: null });
  });
});
