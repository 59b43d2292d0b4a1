import { afterAll, describe, expect, it } from 'vitest';
import { notificationTitle } from '../../../src-renderer/components/NotificationBell';
import { i18n } from '../../../src-renderer/i18n';
import type { Notification } from '../../../src-shared/contract/notifications';

const n = (type: string, metadata: Record<string, unknown> = {}) => ({ type, metadata }) as unknown as Notification;

describe('a notification’s title in the user’s language', () => {
  afterAll(() => i18n.changeLanguage('en'));

  it('says each type the server makes in German too, never its code', async () => {
    await i18n.changeLanguage('de');
    for (const type of ['payment_failed', 'invoice_reminder_queued', 'workflow', 'transactions_created', 'invoice_paid']) {
      expect(i18n.exists(`notifications:types.${type}`, { lng: 'de' }), type).toBe(true);
      expect(notificationTitle(n(type)), type).not.toContain('_');
    }
    expect(notificationTitle(n('payment_failed'))).toBe('Eine Zahlung ist fehlgeschlagen');
    // A title a workflow author wrote stays theirs.
    expect(notificationTitle(n('workflow', { title: 'Mahnung prüfen' }))).toBe('Mahnung prüfen');
  });
});
