/**
 * The bell: the caller's unread notifications counted on it, the list in a popover, each markable as read, or all
 * at once, each leading to what it is about (notification-target.ts; opening it marks it read). Refreshed by the
 * change stream (entity `notification`) like every list.
 */
import { type MouseEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Notification, notificationRoutes } from '../../src-shared/contract/notifications';
import { useCursorList } from '../data/use-cursor-list';
import { useWrite } from '../data/use-write';
import { i18n, t } from '../i18n';
import { formatDateTime } from '../lib/format';
import { useRouter } from '../lib/router';
import { useDismiss } from '../lib/use-dismiss';
import { useToasts } from '../stores/toasts';
import { notificationTarget } from './notification-target';

export function notificationTitle(n: Notification): string {
  const m = n.metadata as Record<string, unknown>;
  if (typeof m.title === 'string' && m.title) return m.title;
  // A type this version does not know yet is shown by its name.
  const key = `notifications:types.${n.type}`;
  return i18n.exists(key) ? t(key) : n.type.replace(/[_-]+/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

export function notificationDetail(n: Notification): string | null {
  const m = n.metadata as Record<string, unknown>;
  for (const key of ['message', 'description', 'body', 'summary'])
    if (typeof m[key] === 'string' && m[key]) return m[key] as string;
  const bits: string[] = [];
  if (typeof m.count === 'number') bits.push(t('notifications:items', { count: m.count }));
  for (const key of ['invoiceNumber', 'customerName', 'name', 'workflowName'])
    if (typeof m[key] === 'string') bits.push(m[key] as string);
  return bits.length ? bits.join(' · ') : null;
}

function BellIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 20 20" fill="none" aria-hidden="true">
      <path
        d="M10 2.5a5 5 0 0 0-5 5v3.2L3.6 13.4c-.3.5 0 1.1.6 1.1h11.6c.6 0 .9-.6.6-1.1L15 10.7V7.5a5 5 0 0 0-5-5Z"
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinejoin="round"
      />
      <path d="M8 16.5a2 2 0 0 0 4 0" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
    </svg>
  );
}

export function NotificationBell({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation('notifications');
  const [isOpen, setOpen] = useState(false);
  const navigate = useRouter((r) => r.navigate);
  const unread = useCursorList(notificationRoutes.list, { status: ['unread'], pageSize: 100 }, { enabled });
  const all = useCursorList(
    notificationRoutes.list,
    { status: ['unread', 'read'], pageSize: 30 },
    { enabled: enabled && isOpen },
  );
  const markOne = useWrite(notificationRoutes.updateStatus);
  const markAll = useWrite(notificationRoutes.updateAllStatus);
  const toast = useToasts();
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const count = unread.items.length;
  const countText = unread.hasNextPage ? '99+' : String(count);

  useDismiss(isOpen, () => setOpen(false), { panel: panelRef, button: buttonRef });

  async function markRead(n: Notification) {
    try {
      await markOne.mutateAsync({ params: { id: n.id }, body: { status: 'read' } });
    } catch (err) {
      toast.error(err, t('markOneFailed'));
    }
  }

  /** Opens what the notification is about (marking it read), the popover closing behind it. */
  async function open(e: MouseEvent, n: Notification) {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    setOpen(false);
    navigate(notificationTarget(n) as string);
    if (n.status === 'unread') await markRead(n);
  }

  async function markAllRead() {
    try {
      await markAll.mutateAsync({ body: { status: 'read' } });
      toast.show(t('allMarked'));
    } catch (err) {
      toast.error(err, t('markAllFailed'));
    }
  }

  return (
    <div className="bell">
      <button
        ref={buttonRef}
        type="button"
        className={`btn ghost icon-btn ${count ? 'has-count' : ''}`}
        aria-label={count ? t('buttonUnread', { shown: countText }) : t('buttonNone')}
        aria-expanded={isOpen}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        disabled={!enabled}
      >
        <BellIcon />
        {count ? (
          <span className="bell-count" aria-hidden="true">
            {countText}
          </span>
        ) : null}
      </button>
      {isOpen ? (
        <div ref={panelRef} id={panelId} className="popover bell-panel" role="dialog" aria-label={t('title')}>
          <div className="popover-header">
            <h2>{t('title')}</h2>
            <button
              type="button"
              className="btn ghost small"
              onClick={() => void markAllRead()}
              disabled={!count || markAll.isPending}
            >
              {t('markAll')}
            </button>
          </div>
          {all.isLoading ? (
            <ul className="notif-list" aria-busy="true">
              {[0, 1, 2].map((i) => (
                <li key={i} className="notif skeleton-block" />
              ))}
            </ul>
          ) : all.items.length === 0 ? (
            <p className="popover-empty">{t('empty')}</p>
          ) : (
            <ul className="notif-list">
              {all.items.map((n) => (
                <li key={n.id} className={`notif ${n.status === 'unread' ? 'unread' : ''}`}>
                  <span className="notif-dot" aria-hidden="true" />
                  <div className="notif-body">
                    <div className="notif-title">
                      {n.status === 'unread' ? <span className="sr-only">{t('unreadPrefix')} </span> : null}
                      {notificationTarget(n) ? (
                        <a href={notificationTarget(n) as string} className="notif-link" onClick={(e) => void open(e, n)}>
                          {notificationTitle(n)}
                        </a>
                      ) : (
                        notificationTitle(n)
                      )}
                    </div>
                    {notificationDetail(n) ? <div className="notif-detail">{notificationDetail(n)}</div> : null}
                    <div className="notif-time">{formatDateTime(n.createdAt)}</div>
                  </div>
                  {n.status === 'unread' ? (
                    <button type="button" className="btn ghost small" onClick={() => void markRead(n)}>
                      {t('markRead')}
                      <span className="sr-only">: {notificationTitle(n)}</span>
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          {all.hasNextPage ? (
            <div className="popover-footer">
              <button type="button" className="btn small" onClick={all.loadMore} disabled={all.isLoadingMore}>
                {all.isLoadingMore ? t('common:loading') : t('showOlder')}
              </button>
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
