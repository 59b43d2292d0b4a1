/**
 * The rule a conflict states, in the screen's language (issue 36; docs/decisions/0193-conflict-rule-codes.md): a
 * conflict recorded with a code reads from the catalogue, the remote's own message inside it kept as said and marked
 * English; one recorded before codes shows its English sentence, marked English too.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordConflict } from '../../src-main/store/sync/conflicts';
import { ensureRemote } from '../../src-main/store/sync/remotes';
import { ensureTeam } from '../../src-main/store/teams/teams';
import { codedRule } from '../../src-shared/domain/sync/conflict-rules';
import { contextOptions, tk, tr } from './helpers/i18n';
import { clockedContext, launchChromium, startUiServer, type UiServer, webUiRoot } from './helpers/ui-server';
import { AppPage } from './pages/app-page';

let browser: Browser;
let local: UiServer;

beforeAll(async () => {
  browser = await launchChromium();
  local = await startUiServer(webUiRoot());
});

afterAll(async () => {
  await browser?.close();
  await local?.close();
});

const OLD_RULE = 'the remote refused the new record (400): bad colour; it stays here only';

describe('a sync conflict’s rule', () => {
  it('reads in the screen’s language, with the remote’s message as it said it', { timeout: 120_000 }, async () => {
    const { email, password } = await local.user();
    const db = local.server.db;
    const teamId = ensureTeam(db, 'Browser Test Co').id;
    // A remote nobody answers on: the conflicts are recorded here, as a round would have.
    const remote = ensureRemote(db, teamId, { baseUrl: 'http://127.0.0.1:9/v1', kind: 'finops' });
    const conflict = (localId: string, name: string) => ({
      teamId,
      remoteId: remote.id,
      entity: 'tag',
      localId,
      kind: 'refused' as const,
      group: 'update',
      fields: ['name'],
      base: null,
      local: { name },
      remote: { name: `${name} (remote)` },
      winner: 'local' as const,
    });
    recordConflict(db, {
      ...conflict('tag-coded', 'Trips'),
      rule: 'the remote refused the change (422): name is taken; this side keeps its values',
      ...codedRule('refused_by_remote_change_kept', { status: 422, message: 'name is taken' }),
    });
    recordConflict(db, { ...conflict('tag-old', 'Office'), rule: OLD_RULE });

    const context = await clockedContext(browser, contextOptions({ viewport: { width: 1280, height: 860 } }));
    const page = await context.newPage();
    const app = new AppPage(page, local.url);
    try {
      await app.open('/sync');
      await app.signIn(email, password);
      const table = page.getByRole('table', { name: tr('Sync conflicts') });
      const rowOf = (name: string) =>
        table.locator('tbody tr[data-conflict-id]').filter({
          hasText: tk('sync:record.named', { entity: tk('sync:entities.tag'), name }),
        });
      const coded = rowOf('Trips').locator('.sync-rule');
      await coded.waitFor({ timeout: 30_000 });
      const sentence = tk('sync:rules.refused_by_remote_change_kept', { status: 422, message: 'name is taken' });
      expect(await coded.innerText()).toBe(sentence);
      // The remote's words are not the screen's: said as they were, and marked English for a screen reader.
      expect(await coded.locator('span[lang="en"]').allInnerTexts()).toEqual(['name is taken']);
      if (process.env.FINOPS_UI_LANG === 'de') expect(sentence).toMatch(/^Die Gegenstelle hat die Änderung abgelehnt/);

      const old = rowOf('Office').locator('.sync-rule');
      expect(await old.innerText()).toBe(OLD_RULE);
      expect(await old.locator('span[lang="en"]').innerText()).toBe(OLD_RULE);
    } finally {
      await context.close();
    }
  });
});
