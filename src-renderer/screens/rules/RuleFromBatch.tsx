/**
 * "Create a rule from these" after an import (`/rules?fromBatch=<id>`, docs/decisions/0116-rule-from-import-batch.md):
 * the batch's rows are read (the transactions list narrowed to the batch), a rule is proposed from them
 * (rule-from-batch.ts) and opened in the editor, which previews and applies it over those rows only. A batch that
 * is unknown here (another team's, a wrong link) or brought no rows gets an empty state instead.
 */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import { categoryRoutes } from '../../../src-shared/contract/categories';
import { importRoutes } from '../../../src-shared/contract/import';
import { ruleRoutes } from '../../../src-shared/contract/rules';
import { transactionRoutes } from '../../../src-shared/contract/transactions';
import { EmptyState } from '../../components/table/EmptyState';
import { ErrorBanner } from '../../components/ui';
import { useRead, useRecord } from '../../data/use-read';
import { RuleEditor } from './RuleEditor';
import type { RuleDraft } from './rule-draft';
import { type BatchProposal, type CategorySource, proposalDraft, proposeCategory, proposeConditions } from './rule-from-batch';
import { useRuleNames } from './use-rule-names';

/** Rows of a batch read for the proposal and the preview (the list's largest page). */
const BATCH_ROWS = 1000;
/** Rows the category suggestions are asked for at once (the route's limit). */
const SUGGESTION_ROWS = 500;

const batchInUrl = () => new URLSearchParams(globalThis.location?.search ?? '').get('fromBatch')?.slice(0, 200) || null;

/** The batch the address names (`fromBatch`), read again on Back and Forward; `drop` removes it from the address. */
export function useFromBatch(): [string | null, () => void] {
  const [batchId, setBatchId] = useState(batchInUrl);
  useEffect(() => {
    const read = () => setBatchId(batchInUrl());
    globalThis.addEventListener('popstate', read);
    return () => globalThis.removeEventListener('popstate', read);
  }, []);
  const drop = () => {
    const url = new URL(globalThis.location.href);
    url.searchParams.delete('fromBatch');
    globalThis.history.replaceState(null, '', `${url.pathname}${url.search}`);
    setBatchId(null);
  };
  return [batchId, drop];
}

export function RuleFromBatch(props: { batchId: string; onClose: () => void }) {
  const { t } = useTranslation('rules');
  const { names } = useRuleNames();
  const batch = useRecord(importRoutes.getBatch, { id: props.batchId });
  const rows = useRead(transactionRoutes.list, { query: { importBatch: props.batchId, pageSize: BATCH_ROWS } });
  const categories = useRead(categoryRoutes.list);
  const rowList = rows.data?.data;
  const proposal = useMemo(() => (rowList ? proposeConditions(rowList) : null), [rowList]);
  const fromBatch = useMemo(() => (rowList && proposal ? proposeCategory(rowList, proposal) : null), [rowList, proposal]);
  // Suggestions only when the batch itself does not say the category.
  const askIds = proposal && fromBatch?.slug === null ? proposal.rowIds.slice(0, SUGGESTION_ROWS) : [];
  const suggestions = useRead(ruleRoutes.categorySuggestions, { query: { ids: askIds } }, { enabled: askIds.length > 0 });
  const [opened, setOpened] = useState<{ draft: RuleDraft; ids: string[]; note: NoteProps } | null>(null);

  const gone = batch.error instanceof ApiClientError && batch.error.status === 404;
  if (gone || (rowList && !proposal)) {
    return (
      <div className="card" data-testid="rule-from-batch-empty">
        <EmptyState
          title={t(gone ? 'fromBatch.notFound' : 'fromBatch.noRows')}
          action={
            <button type="button" className="btn" onClick={props.onClose}>
              {t('fromBatch.back')}
            </button>
          }
        >
          {t(gone ? 'fromBatch.notFoundText' : 'fromBatch.noRowsText')}
        </EmptyState>
      </div>
    );
  }
  const error = batch.error ?? rows.error ?? categories.error;
  if (error && !opened) {
    const retry = () => void Promise.all([batch.refetch(), rows.refetch(), categories.refetch()]);
    return <ErrorBanner error={error} onRetry={retry} />;
  }
  // The editor opens once everything the proposal reads has arrived (a failed suggestion only leaves the category to
  // choose) and keeps that first proposal: later reads (a change event refreshing the rows) do not reopen it.
  const ready = batch.data && rowList && proposal && fromBatch && !categories.isLoading;
  if (!opened && ready && !(askIds.length > 0 && suggestions.isPending)) {
    const suggested = (suggestions.data?.data ?? []).map((s) => s.categorySlug);
    const category = fromBatch.slug !== null ? fromBatch : proposeCategory(rowList, proposal, suggested);
    const name = category.slug
      ? t('counterparty.ruleName', { who: proposal.value, category: names.category(category.slug) })
      : proposal.value;
    setOpened({
      draft: proposalDraft(proposal, category.slug, name),
      ids: rowList.map((r) => r.id),
      note: { file: batch.data.fileName ?? t('fromBatch.thisImport'), proposal, source: category.source },
    });
  }
  if (!opened) {
    return (
      <p className="faint" role="status">
        {t('fromBatch.reading')}
      </p>
    );
  }
  return (
    <RuleEditor initial={opened.draft} onClose={props.onClose} scopeIds={opened.ids} intro={<ProposalNote {...opened.note} />} />
  );
}

interface NoteProps {
  file: string;
  proposal: BatchProposal;
  source: CategorySource;
}

/** How the rule was proposed, in words: which rows, what they share (or that they share nothing), the category. */
function ProposalNote(props: NoteProps) {
  const { t } = useTranslation('rules');
  const { proposal: p, file } = props;
  const who = p.value;
  const rows = p.uncategorisedOnly ? t('fromBatch.open', { count: p.considered, file }) : t('fromBatch.allCategorised', { file });
  const basis =
    p.basis === 'firstRow' ? t('fromBatch.firstRow', { who }) : t(`fromBatch.${p.basis}`, { count: p.rowIds.length, who });
  const category = t(props.source ? `fromBatch.category.${props.source}` : 'fromBatch.category.none');
  return (
    <div className={p.basis === 'firstRow' ? 'banner warn' : 'banner info'} role="note" data-testid="rule-from-batch">
      <div className="grow">
        <strong>{rows}</strong> {basis} {category}
      </div>
    </div>
  );
}
