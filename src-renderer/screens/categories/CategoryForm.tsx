/**
 * A category's form in a drawer: name, colour, the group it sits in (or none: a group itself), tax rate and type,
 * reporting code, description, and whether reports leave it out. Deleting asks first and says where its
 * transactions go (uncategorised, moved by the server in the same write) and how many they are.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  categoryRoutes,
  TAX_TYPES,
  type TransactionCategory,
  type TransactionCategoryCreate,
} from '../../../src-shared/contract/categories';
import { transactionRoutes } from '../../../src-shared/contract/transactions';
import { TRANSACTION_STATUSES } from '../../../src-shared/domain/transactions';
import { FormDrawer } from '../../components/FormDrawer';
import { ConfirmDialog, Field } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { formatNumber } from '../../lib/format';
import { useToasts } from '../../stores/toasts';
import { type CategoryDraft, createBody, deleteBlocker, draftOf, parentChoices, patchBody } from './category-tree';

export function CategoryForm(props: {
  category?: TransactionCategory;
  /** A new category's group, when it is added from one. */
  parentId?: string;
  categories: readonly TransactionCategory[];
  onClose: () => void;
}) {
  const { t } = useTranslation('categories');
  const { category, categories } = props;
  const nameRef = useRef<HTMLInputElement>(null);
  useEffect(() => nameRef.current?.focus(), []);
  const [draft, setDraft] = useState<CategoryDraft>(() => draftOf(category, props.parentId));
  const [showErrors, setShowErrors] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [deleting, setDeleting] = useState(false);
  const create = useWrite(categoryRoutes.create);
  const update = useWrite(categoryRoutes.update);
  const remove = useWrite(categoryRoutes.delete);
  const toast = useToasts();
  const parsed = category ? patchBody(draft, category) : createBody(draft);
  const errors = showErrors ? (parsed.errors ?? {}) : {};
  const parents = parentChoices(categories, category);
  const blocker = category ? deleteBlocker(category, categories) : null;
  const busy = create.isPending || update.isPending || remove.isPending;
  const set = (patch: Partial<CategoryDraft>) => setDraft({ ...draft, ...patch });
  // How many transactions a delete moves (every status, whole or split), asked only when the question is.
  const counts = useRead(
    transactionRoutes.reviewCounts,
    { query: { categories: [category?.slug ?? ''], statuses: [...TRANSACTION_STATUSES] } },
    { enabled: deleting && Boolean(category) },
  );
  const affected = counts.data ? Object.values(counts.data.data).reduce((a, b) => a + b, 0) : null;

  async function save() {
    setShowErrors(true);
    setFailure(null);
    if (!parsed.body) return;
    try {
      const saved = category
        ? await update.mutateAsync({ params: { id: category.id }, body: parsed.body })
        : await create.mutateAsync({ body: parsed.body as TransactionCategoryCreate });
      toast.show(t(category ? 'form.saved' : 'form.created', { name: saved.name }));
      props.onClose();
    } catch (err) {
      setFailure(err);
    }
  }

  async function destroy() {
    if (!category) return;
    try {
      const gone = await remove.mutateAsync({ params: { id: category.id } });
      toast.show(t('form.deleted', { name: gone.name, count: gone.transactionsMoved }));
      props.onClose();
    } catch (err) {
      setDeleting(false);
      setFailure(err);
    }
  }

  const taxTypeOptions = ['', ...TAX_TYPES] as const;
  return (
    <FormDrawer
      title={category ? t('form.editTitle', { name: category.name }) : t('form.newTitle')}
      saveLabel={category ? t('form.save') : t('form.create')}
      onSave={() => void save()}
      onClose={props.onClose}
      busy={busy}
      failure={failure}
      onDelete={category ? () => setDeleting(true) : undefined}
      deleteBlocked={blocker ? t(`form.cannotDelete.${blocker}`) : undefined}
      deleting={
        deleting && category ? (
          <ConfirmDialog
            title={t('form.deleteTitle', { name: category.name })}
            body={
              affected === null
                ? t('form.deleteCounting')
                : t('form.deleteText', { count: affected, shown: formatNumber(affected) })
            }
            confirmLabel={t('common:delete')}
            danger
            busy={busy || affected === null}
            onConfirm={() => void destroy()}
            onCancel={() => setDeleting(false)}
          />
        ) : null
      }
    >
      <section className="form-section">
        <div className="grid-2">
          <Field label={t('form.name')} required error={errors.name ? t('form.errors.required') : undefined}>
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                className="input"
                value={draft.name}
                maxLength={100}
                ref={nameRef}
                aria-invalid={invalid}
                aria-describedby={describedBy}
                onChange={(e) => set({ name: e.target.value })}
              />
            )}
          </Field>
          <Field label={t('form.colour')} hint={draft.color ? undefined : t('form.colourHint')}>
            {({ id, describedBy }) => (
              <input
                id={id}
                type="color"
                className="input colour"
                value={draft.color || '#8a94a6'}
                aria-describedby={describedBy}
                onChange={(e) => set({ color: e.target.value })}
              />
            )}
          </Field>
        </div>
        <Field label={t('form.parent')} hint={category && parents.length === 0 ? t('form.parentFixed') : t('form.parentHint')}>
          {({ id, describedBy }) => (
            <select
              id={id}
              className="select"
              value={draft.parentId}
              disabled={Boolean(category) && parents.length === 0}
              aria-describedby={describedBy}
              onChange={(e) => set({ parentId: e.target.value })}
            >
              <option value="">{t('form.noParent')}</option>
              {parents.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </section>
      <section className="form-section">
        <h3>{t('form.tax')}</h3>
        <div className="grid-3">
          <Field label={t('form.taxRate')} error={errors.taxRate ? t('form.errors.taxRate') : undefined}>
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                className="input num"
                inputMode="decimal"
                value={draft.taxRate}
                aria-invalid={invalid}
                aria-describedby={describedBy}
                onChange={(e) => set({ taxRate: e.target.value })}
              />
            )}
          </Field>
          <Field label={t('form.taxType')}>
            {({ id }) => (
              <select
                id={id}
                className="select"
                value={draft.taxType}
                onChange={(e) => set({ taxType: e.target.value as CategoryDraft['taxType'] })}
              >
                {taxTypeOptions.map((x) => (
                  <option key={x} value={x}>
                    {t(`taxTypes.${x || 'unset'}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('form.reportingCode')}>
            {({ id }) => (
              <input
                id={id}
                className="input"
                maxLength={50}
                value={draft.taxReportingCode}
                onChange={(e) => set({ taxReportingCode: e.target.value })}
              />
            )}
          </Field>
        </div>
      </section>
      <section className="form-section">
        <Field label={t('form.description')}>
          {({ id }) => (
            <textarea
              id={id}
              className="textarea"
              maxLength={500}
              value={draft.description}
              onChange={(e) => set({ description: e.target.value })}
            />
          )}
        </Field>
        <label className="check">
          <input
            type="checkbox"
            checked={draft.excluded}
            disabled={category?.system}
            onChange={(e) => set({ excluded: e.target.checked })}
          />
          {t('form.excluded')}
        </label>
        {category?.system ? <p className="faint small">{t('form.systemNote')}</p> : null}
      </section>
    </FormDrawer>
  );
}
