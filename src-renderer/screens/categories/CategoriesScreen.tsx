/**
 * Categories (`/categories`): the team's category tree — each group with its categories, their colour, tax and
 * whether reports leave them out. A row opens its form; a group offers to add a category under it. Keyboard: `n`
 * adds a category, ↑/↓ and Enter open one.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { categoryRoutes, type TransactionCategory } from '../../../src-shared/contract/categories';
import { PageHeader } from '../../components/PageHeader';
import type { Column } from '../../components/table/columns';
import { DataTable } from '../../components/table/DataTable';
import { ErrorBanner, Kbd } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { formatNumber } from '../../lib/format';
import { useScreenKeys } from '../../lib/use-screen-keys';
import { CategoryForm } from './CategoryForm';
import { type TreeRow, treeRows } from './category-tree';
import './categories.css';

type Editing = { category?: TransactionCategory; parentId?: string } | null;

export function CategoriesScreen() {
  const { t } = useTranslation('categories');
  const list = useRead(categoryRoutes.list);
  const categories = list.data?.data ?? [];
  const rows = useMemo(() => treeRows(list.data?.data ?? []), [list.data]);
  const [editing, setEditing] = useState<Editing>(null);
  const columns = useMemo<Column<TreeRow>[]>(
    () => [
      {
        id: 'name',
        header: t('columns.name'),
        cell: (r) => (
          <div className={`cat-name depth-${r.depth}`}>
            <span className="cat-swatch" style={{ background: r.category.color }} aria-hidden="true" />
            <span className={r.depth === 0 ? 'strong' : undefined}>{r.category.name}</span>
            {r.depth === 0 && r.children > 0 ? (
              <span className="faint small">{t('childCount', { count: r.children })}</span>
            ) : null}
          </div>
        ),
      },
      { id: 'slug', header: t('columns.slug'), cell: (r) => <code>{r.category.slug}</code> },
      {
        id: 'tax',
        header: t('columns.tax'),
        cell: (r) =>
          r.category.taxRate === null && !r.category.taxType
            ? '—'
            : [
                r.category.taxRate === null
                  ? null
                  : t('percent', { rate: formatNumber(r.category.taxRate, Number.isInteger(r.category.taxRate) ? 0 : 2) }),
                r.category.taxType ? t(`taxTypes.${r.category.taxType}`) : null,
              ]
                .filter(Boolean)
                .join(' · '),
      },
      {
        id: 'flags',
        header: t('columns.flags'),
        cell: (r) => (
          <>
            {r.category.excluded ? <span className="chip">{t('flags.excluded')}</span> : null}
            {r.category.system ? <span className="chip">{t('flags.system')}</span> : null}
          </>
        ),
      },
      {
        id: 'add',
        header: t('columns.add'),
        srOnlyHeader: true,
        cell: (r) =>
          r.depth === 0 && !r.category.system ? (
            <button
              type="button"
              className="btn small ghost"
              aria-label={t('addUnder', { name: r.category.name })}
              onClick={(e) => {
                e.stopPropagation();
                setEditing({ parentId: r.category.id });
              }}
              onKeyDown={(e) => e.stopPropagation()}
            >
              {t('add')}
            </button>
          ) : null,
      },
    ],
    [t],
  );

  useScreenKeys({ n: () => setEditing({}) }, { enabled: !editing });

  return (
    <div className="page categories-page">
      <PageHeader namespace="categories">
        <button type="button" className="btn primary" onClick={() => setEditing({})}>
          {t('new')} <Kbd k="N" />
        </button>
      </PageHeader>
      {list.error ? <ErrorBanner error={list.error} onRetry={() => void list.refetch()} /> : null}
      <div className="card">
        <DataTable
          label={t('title')}
          className="categories-table"
          columns={columns}
          rows={rows}
          rowKey={(r) => r.category.id}
          rowProps={(r) => ({ 'data-category-id': r.category.id, className: r.depth === 0 ? 'group' : '' })}
          onOpen={(r) => setEditing({ category: r.category })}
          wrap
          loading={list.isLoading}
          skeletonRows={8}
        />
      </div>
      {editing ? (
        <CategoryForm
          category={editing.category}
          parentId={editing.parentId}
          categories={categories}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </div>
  );
}
