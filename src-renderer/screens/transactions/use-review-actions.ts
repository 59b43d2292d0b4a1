/**
 * The review actions on a set of rows (categorise, tag, note, mark reviewed, exclude) and their undo.
 *
 * Writes run one after another, in the order the keys were pressed (lib/serial-queue.ts): a key pressed while an
 * earlier write is still on its way waits for it instead of being dropped. Each action's rows and values are taken
 * when its key is pressed (what the person saw), and what the rows held before is recorded for undo. After a write the
 * list refreshes in the background: nothing waits for it, so a slow refresh cannot hold up the next action (a note
 * saved during the refresh after a categorisation was once lost so, silently, under load).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { ReviewRow } from '../../../src-shared/contract/app-transactions';
import { invalidateEntities } from '../../data/query-client';
import { t } from '../../i18n';
import { serialQueue } from '../../lib/serial-queue';
import { useToasts } from '../../stores/toasts';
import { bulkUpdate, revert } from './bulk-update';
import { recordUndo, revertCalls, type UndoEntry, type UndoField } from './undo';

/** How many actions can be undone, newest first. */
const MAX_UNDO = 20;

/** "1 transaction", "1,204 transactions". */
export function transactionCount(n: number): string {
  return t('transactions:count', { count: n });
}

export interface ReviewActions {
  /** A write is running or waiting: the bulk bar's buttons show it. */
  busy: boolean;
  canUndo: boolean;
  /** Each resolves true when the write was made (false: nothing to change, or it failed and said so). */
  categorise(rows: ReviewRow[], slug: string | null, categoryName: string): Promise<boolean>;
  addTag(rows: ReviewRow[], tagId: string, tagName: string): Promise<boolean>;
  saveNote(rows: ReviewRow[], note: string | null): Promise<boolean>;
  toggleReviewed(rows: ReviewRow[]): Promise<boolean>;
  toggleExcluded(rows: ReviewRow[]): Promise<boolean>;
  undoLast(): Promise<void>;
  /** An action made elsewhere (the similar-transactions dialog): undone like the others, the list refreshed. */
  madeElsewhere(entry: UndoEntry): void;
}

export function useReviewActions(): ReviewActions {
  const client = useQueryClient();
  const toast = useToasts();
  const [pending, setPending] = useState(0);
  const [queue] = useState(() => serialQueue(setPending));
  const undoStack = useRef<UndoEntry[]>([]);
  const [undoCount, setUndoCount] = useState(0);

  const refresh = () => void invalidateEntities(client, ['transaction']);
  const setStack = (next: UndoEntry[]) => {
    undoStack.current = next;
    setUndoCount(next.length);
  };
  const pushUndo = (entry: UndoEntry) => setStack([...undoStack.current.slice(-(MAX_UNDO - 1)), entry]);

  const undoLast = () =>
    queue.run(async () => {
      const entry = undoStack.current[undoStack.current.length - 1];
      if (!entry) {
        toast.show(t('transactions:undoNothing'));
        return;
      }
      setStack(undoStack.current.slice(0, -1));
      try {
        for (const call of revertCalls(entry)) await revert(call);
        toast.show(t('transactions:undone', { what: entry.label }));
      } catch (err) {
        toast.error(err, t('transactions:undoFailed'));
      }
      refresh();
    });

  /** An action as `actions.<name>` says it: what was done (`_done`) and what failed (`_failed`). */
  function act(
    name: string,
    vars: Record<string, unknown>,
    field: UndoField,
    rows: readonly ReviewRow[],
    body: Record<string, unknown>,
  ): Promise<boolean> {
    if (rows.length === 0) return Promise.resolve(false);
    const what = { ...vars, count: rows.length };
    const label = t(`transactions:actions.${name}_done`, what);
    const entry = recordUndo(label, field, rows);
    const ids = rows.map((r) => r.id);
    return queue.run(async () => {
      try {
        await bulkUpdate(ids, body);
      } catch (err) {
        toast.error(err, t(`transactions:actions.${name}_failed`, what));
        return false;
      }
      pushUndo(entry);
      toast.show(label, { action: { label: t('transactions:undo'), run: () => void undoLast() } });
      refresh();
      return true;
    });
  }

  return {
    busy: pending > 0,
    canUndo: undoCount > 0,
    categorise: (rows, slug, name) => act('categorise', { name }, 'category', rows, { categorySlug: slug }),
    addTag: (rows, tagId, name) => act('tag', { name }, 'tags', rows, { tagId }),
    saveNote: (rows, note) => act(note ? 'note' : 'removeNote', {}, 'note', rows, { note }),
    toggleReviewed(rows) {
      const open = rows.filter((r) => r.reviewState !== 'excluded' && r.reviewState !== 'exported');
      const reviewed = !open.every((r) => r.reviewed);
      return act(reviewed ? 'review' : 'unreview', {}, 'reviewed', open, { reviewed });
    },
    toggleExcluded(rows) {
      const exclude = !rows.every((r) => r.status === 'excluded');
      return act(exclude ? 'exclude' : 'include', {}, 'status', rows, { status: exclude ? 'excluded' : 'posted' });
    },
    undoLast,
    madeElsewhere(entry) {
      pushUndo(entry);
      refresh();
    },
  };
}
