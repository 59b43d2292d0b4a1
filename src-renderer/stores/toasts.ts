/** Short confirmations ("Customer saved") shown bottom-right for a few seconds, announced to screen readers. */
import { create } from 'zustand';

interface Toast {
  id: number;
  text: string;
}

interface ToastState {
  toasts: Toast[];
  show(text: string): void;
}

let next = 1;

export const useToasts = create<ToastState>((set) => ({
  toasts: [],
  show(text) {
    const id = next++;
    set((s) => ({ toasts: [...s.toasts, { id, text }] }));
    setTimeout(() => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })), 3500);
  },
}));
