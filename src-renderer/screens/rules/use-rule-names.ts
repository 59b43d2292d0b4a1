/** What a rule refers to by id or slug (categories, accounts, tags), named from the lists the screen has read. */
import { useMemo } from 'react';
import { bankAccountRoutes } from '../../../src-shared/contract/bank-accounts';
import { categoryRoutes } from '../../../src-shared/contract/categories';
import { tagRoutes } from '../../../src-shared/contract/tags';
import { useRead } from '../../data/use-read';
import type { RuleNames } from './rule-words';

export function useRuleNames() {
  const categories = useRead(categoryRoutes.list);
  const accounts = useRead(bankAccountRoutes.list, { query: {} });
  const tags = useRead(tagRoutes.list);
  const categoryList = categories.data?.data;
  const accountList = accounts.data?.data;
  const tagList = tags.data?.data;
  const names = useMemo<RuleNames>(() => {
    const byKey = <T>(items: readonly T[] | undefined, key: (x: T) => string, name: (x: T) => string | null) =>
      new Map((items ?? []).map((x) => [key(x), name(x)]));
    const category = byKey(
      categoryList,
      (c) => c.slug,
      (c) => c.name,
    );
    const account = byKey(
      accountList,
      (a) => a.id,
      (a) => a.name,
    );
    const tag = byKey(
      tagList,
      (x) => x.id,
      (x) => x.name,
    );
    return {
      category: (slug) => category.get(slug) ?? slug,
      account: (id) => account.get(id) ?? id,
      tag: (id) => tag.get(id) ?? id,
    };
  }, [categoryList, accountList, tagList]);
  return { names, categories: categoryList ?? [], accounts: accountList ?? [], tags: tagList ?? [] };
}
