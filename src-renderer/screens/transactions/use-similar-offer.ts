/**
 * "Apply to N similar": after one transaction is categorised, the uncategorised ones from the same payee are looked
 * up (GET /v1/rules/similar, a dry run) and offered in a banner; the dialog shows the dry run before anything changes.
 */
import { useState } from 'react';
import type { ReviewRow } from '../../../src-shared/contract/app-transactions';
import { ruleRoutes } from '../../../src-shared/contract/rules';
import { api } from '../../lib/api';
import type { SimilarOffer } from './SimilarDialog';

export interface SimilarOffers {
  offer: SimilarOffer | null;
  /** The dialog with the dry run is open. */
  open: boolean;
  lookFor(row: ReviewRow, slug: string, categoryName: string): Promise<void>;
  /** Opens the dialog; false when there is no offer to open. */
  show(): boolean;
  close(): void;
  dismiss(): void;
}

export function useSimilarOffer(): SimilarOffers {
  const [offer, setOffer] = useState<SimilarOffer | null>(null);
  const [open, setOpen] = useState(false);
  return {
    offer,
    open: open && offer !== null,
    async lookFor(row, slug, categoryName) {
      try {
        const similar = await api.call(ruleRoutes.similar, { query: { transactionId: row.id } });
        const ids = similar.preview.transactions.map((x) => x.id).filter((id) => id !== row.id);
        setOffer(ids.length > 0 ? { source: row, categoryName, slug, rule: similar.rule, preview: similar.preview, ids } : null);
      } catch {
        // Suggestions are a convenience: without them the review goes on.
        setOffer(null);
      }
    },
    show() {
      if (!offer) return false;
      setOpen(true);
      return true;
    },
    close: () => setOpen(false),
    dismiss() {
      setOffer(null);
      setOpen(false);
    },
  };
}
