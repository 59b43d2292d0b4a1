/**
 * The dry run of a rule being written (POST /v1/rules/dry-run with the unsaved rule): asked 400 ms after the last
 * edit over every transaction (or only the `ids` given: an import's rows), so the preview follows the editor without
 * a request per key; the previous answer stays on screen while the next is computed.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type RuleInput, ruleRoutes } from '../../../src-shared/contract/rules';
import { queryKey } from '../../data/entities';
import { api } from '../../lib/api';

export const DRY_RUN_DELAY_MS = 400;
/** Transactions listed in a preview; the count of all that would change comes with it. */
export const PREVIEW_LIMIT = 200;

export function useDryRun(input: RuleInput | null, ids?: readonly string[]) {
  const [asked, setAsked] = useState<RuleInput | null>(input);
  const text = input ? JSON.stringify(input) : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: the rule's text says when it changed, not its identity
  useEffect(() => {
    const timer = setTimeout(() => setAsked(input), DRY_RUN_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return useQuery({
    queryKey: queryKey(ruleRoutes.dryRun, 'list', { asked, ids }),
    queryFn: ({ signal }) =>
      api.call(ruleRoutes.dryRun, {
        body: { rule: asked ?? undefined, limit: PREVIEW_LIMIT, ...(ids ? { ids: [...ids] } : {}) },
        signal,
      }),
    enabled: asked !== null,
    placeholderData: keepPreviousData,
  });
}
