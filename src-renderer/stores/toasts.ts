/**
 * Short messages shown bottom-right: confirmations ("Customer saved") for a few seconds, errors (with the server's
 * own message and the request id support needs) until dismissed or for longer. Announced to screen readers: errors
 * as alerts.
 */
import { create } from 'zustand';
import { ApiClientError } from '../../src-shared/api-client';
import { t } from '../i18n';

export interface Toast {
  id: number;
  text: string;
  kind: 'info' | 'error';
  detail?: string;
  /** A button in the toast ("Undo"). */
  action?: { label: string; run: () => void };
}

interface ToastState {
  toasts: Toast[];
  show(text: string, options?: { action?: Toast['action']; ms?: number }): void;
  /** An error, in the server's words when it came from the API. */
  error(err: unknown, context?: string): void;
  dismiss(id: number): void;
}

let next = 1;

/** The message of an error as a person should read it: the server's message, its description, the request id. */
export function describeError(err: unknown): { text: string; detail?: string } {
  if (err instanceof ApiClientError) {
    if (err.isNetworkError) return { text: t('errors.unreachable'), detail: t('errors.checkRunning') };
    const detail = [err.description, err.requestId ? t('errors.requestId', { id: err.requestId }) : null]
      .filter(Boolean)
      .join(' · ');
    return { text: err.message, detail: detail || undefined };
  }
  return { text: err instanceof Error ? err.message : String(err) };
}

export const useToasts = create<ToastState>((set, get) => ({
  toasts: [],
  show(text, options = {}) {
    const id = next++;
    set((s) => ({ toasts: [...s.toasts.slice(-3), { id, text, kind: 'info', action: options.action }] }));
    setTimeout(() => get().dismiss(id), options.ms ?? (options.action ? 6000 : 3500));
  },
  error(err, context) {
    const id = next++;
    const { text, detail } = describeError(err);
    set((s) => ({
      toasts: [...s.toasts.slice(-3), { id, text: context ? `${context}: ${text}` : text, detail, kind: 'error' }],
    }));
    setTimeout(() => get().dismiss(id), 10_000);
  },
  dismiss(id) {
    set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
  },
}));
