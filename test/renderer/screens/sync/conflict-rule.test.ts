/**
 * A conflict's stated rule as the Sync screen reads it (ruleParts in src-renderer/screens/sync/conflict-view.ts): the
 * catalogue's sentence for its code in the user's language, the remote's message kept as said, and the English
 * sentence for rows without a code.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../../../src-renderer/i18n';
import { setFormatPreferences } from '../../../../src-renderer/lib/format';
import { ruleParts, ruleText } from '../../../../src-renderer/screens/sync/conflict-view';
import type { SyncConflictInfo } from '../../../../src-shared/contract/app-sync';

type Rule = Pick<SyncConflictInfo, 'rule' | 'ruleCode' | 'ruleParams'>;

const refused: Rule = {
  rule: 'the remote failed on this change in 1234 rounds in a row (upstream {{timeout}}): …',
  ruleCode: 'given_up_after_failures',
  ruleParams: { failures: 1234, message: 'upstream {{timeout}}' },
};

describe('a conflict’s rule', () => {
  afterEach(async () => {
    setFormatPreferences({ locale: 'en', dateFormat: 'yyyy-MM-dd' });
    await i18n.changeLanguage('en');
  });

  it('reads the sentence of its code, the message a part of its own, said as it was', () => {
    expect(ruleParts(refused)).toEqual([
      { text: 'The remote failed on this change in 1,234 rounds in a row (' },
      { text: 'upstream {{timeout}}', said: true },
      { text: '): it is no longer sent and stays here as it is. Take this side to try again.' },
    ]);
    expect(ruleParts({ rule: 'x', ruleCode: 'remote_merged_records', ruleParams: null })).toEqual([
      {
        text: 'The remote took this new record for another one it holds (it answered with that one): both stay separate here, and this one is not on the remote.',
      },
    ]);
  });

  it('reads in German, with the remote’s message still as it said it', async () => {
    setFormatPreferences({ locale: 'de-DE', dateFormat: 'dd.MM.yyyy' });
    await i18n.changeLanguage('de');
    expect(ruleText(refused)).toBe(
      'Die Gegenstelle ist an dieser Änderung 1.234 Runden nacheinander gescheitert (upstream {{timeout}}): Sie wird nicht mehr gesendet und bleibt hier, wie sie ist. Übernehmen Sie diese Seite, um es erneut zu versuchen.',
    );
    expect(ruleParts(refused).filter((p) => p.said)).toEqual([{ text: 'upstream {{timeout}}', said: true }]);
  });

  it('shows a rule recorded before codes as its English sentence, said as it was', async () => {
    await i18n.changeLanguage('de');
    const old: Rule = { rule: 'remote wins: the shared copy holds the facts', ruleCode: null, ruleParams: null };
    expect(ruleParts(old)).toEqual([{ text: old.rule, said: true }]);
  });

  it('falls back to English in French, which is started', async () => {
    await i18n.changeLanguage('fr');
    expect(ruleText({ rule: 'x', ruleCode: 'remote_holds_shared_facts', ruleParams: null })).toBe(
      'Remote wins: the shared copy holds the facts everyone works from.',
    );
  });
});
