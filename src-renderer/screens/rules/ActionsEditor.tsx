/**
 * What a rule does to the transactions it matches: set the category, add tags, set or add to the note, rename the
 * counterparty, mark internal or recurring, exclude, or split by amounts and percentages (the rest takes what is
 * left). One row per action.
 */
import { useTranslation } from 'react-i18next';
import { FREQUENCIES } from '../../../src-shared/domain/transactions';
import { CategorySelect } from './CategorySelect';
import type { EditorLists } from './ConditionsEditor';
import {
  ACTION_TYPES,
  type ActionDraft,
  type ActionType,
  type DraftErrors,
  newAction,
  newPart,
  type PartDraft,
} from './rule-draft';

export function ActionsEditor(props: {
  actions: ActionDraft[];
  onChange: (actions: ActionDraft[]) => void;
  errors: DraftErrors;
  lists: EditorLists;
}) {
  const { t } = useTranslation('rules');
  const { actions, onChange, errors } = props;
  const set = (i: number, action: ActionDraft | null) => {
    const next = [...actions];
    if (action) next[i] = action;
    else next.splice(i, 1);
    onChange(next);
  };
  return (
    <fieldset className="rule-actions">
      <legend className="sr-only">{t('editor.actions')}</legend>
      <ol className="rule-parts">
        {actions.map((a, i) => (
          <li key={a.key}>
            <ActionRow
              action={a}
              n={i + 1}
              errors={errors}
              lists={props.lists}
              onChange={(x) => set(i, x)}
              onRemove={actions.length > 1 ? () => set(i, null) : undefined}
            />
          </li>
        ))}
      </ol>
      {errors.actions ? (
        <span className="error" role="alert">
          {t(`errors.${errors.actions}`)}
        </span>
      ) : null}
      <div className="panel-actions">
        <button type="button" className="btn small" onClick={() => onChange([...actions, newAction('add_tags')])}>
          {t('editor.addAction')}
        </button>
      </div>
    </fieldset>
  );
}

function ActionRow(props: {
  action: ActionDraft;
  n: number;
  errors: DraftErrors;
  lists: EditorLists;
  onChange: (a: ActionDraft) => void;
  onRemove?: () => void;
}) {
  const { t } = useTranslation('rules');
  const { action: a, n, lists, onChange } = props;
  const set = (patch: Partial<ActionDraft>) => onChange({ ...a, ...patch });
  const error = props.errors[a.key];
  return (
    <div className="rule-action" data-action={n}>
      <div className="rule-leaf">
        <select
          className="select"
          aria-label={t('editor.actionType', { n })}
          value={a.type}
          onChange={(e) => onChange({ ...newAction(e.target.value as ActionType), key: a.key })}
        >
          {ACTION_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`editor.actionTypes.${type}`)}
            </option>
          ))}
        </select>
        {a.type === 'set_category' ? (
          <CategorySelect
            label={t('editor.category', { n })}
            value={a.categorySlug}
            categories={lists.categories}
            onChange={(categorySlug) => set({ categorySlug })}
          />
        ) : null}
        {a.type === 'set_note' || a.type === 'append_note' || a.type === 'rename_counterparty' ? (
          <input
            className="input grow"
            aria-label={t(a.type === 'rename_counterparty' ? 'editor.newName' : 'editor.note', { n })}
            value={a.text}
            onChange={(e) => set({ text: e.target.value })}
          />
        ) : null}
        {a.type === 'mark_recurring' ? (
          <select
            className="select"
            aria-label={t('editor.frequency', { n })}
            value={a.frequency}
            onChange={(e) => set({ frequency: e.target.value })}
          >
            {FREQUENCIES.map((f) => (
              <option key={f} value={f}>
                {t(`transactions:frequencies.${f}`)}
              </option>
            ))}
          </select>
        ) : null}
        {props.onRemove ? (
          <button type="button" className="btn ghost small" aria-label={t('editor.removeAction', { n })} onClick={props.onRemove}>
            {t('editor.remove')}
          </button>
        ) : null}
      </div>
      {a.type === 'add_tags' ? (
        <fieldset className="tag-picker">
          <legend className="sr-only">{t('editor.tags', { n })}</legend>
          {lists.tags.length === 0 ? <span className="faint">{t('editor.noTags')}</span> : null}
          {lists.tags.map((tag) => {
            const on = a.tagIds.includes(tag.id);
            return (
              <button
                key={tag.id}
                type="button"
                className="tag-option"
                aria-pressed={on}
                onClick={() => set({ tagIds: on ? a.tagIds.filter((x) => x !== tag.id) : [...a.tagIds, tag.id] })}
              >
                {tag.name}
              </button>
            );
          })}
        </fieldset>
      ) : null}
      {a.type === 'split' ? <SplitParts action={a} n={n} errors={props.errors} lists={lists} set={set} /> : null}
      {error ? (
        <span className="error" role="alert">
          {t(`errors.${error}`)}
        </span>
      ) : null}
    </div>
  );
}

function SplitParts(props: {
  action: ActionDraft;
  n: number;
  errors: DraftErrors;
  lists: EditorLists;
  set: (patch: Partial<ActionDraft>) => void;
}) {
  const { t } = useTranslation('rules');
  const { action: a, n, lists, set } = props;
  const setPart = (i: number, part: PartDraft | null) => {
    const parts = [...a.parts];
    if (part) parts[i] = part;
    else parts.splice(i, 1);
    set({ parts });
  };
  return (
    <div className="rule-split">
      {a.parts.map((p, i) => {
        const at = `${n}.${i + 1}`;
        return (
          <div key={p.key} className="rule-leaf">
            <select
              className="select"
              aria-label={t('editor.partBy', { n: at })}
              value={p.by}
              onChange={(e) => setPart(i, { ...p, by: e.target.value as PartDraft['by'] })}
            >
              <option value="percent">{t('editor.percent')}</option>
              <option value="amount">{t('editor.fixedAmount')}</option>
            </select>
            <input
              className="input short"
              inputMode="decimal"
              aria-label={t('editor.partValue', { n: at })}
              value={p.value}
              onChange={(e) => setPart(i, { ...p, value: e.target.value })}
            />
            <CategorySelect
              label={t('editor.partCategory', { n: at })}
              value={p.categorySlug}
              categories={lists.categories}
              none={t('editor.uncategorised')}
              onChange={(categorySlug) => setPart(i, { ...p, categorySlug })}
            />
            {a.parts.length > 1 ? (
              <button
                type="button"
                className="btn ghost small"
                aria-label={t('editor.removePart', { n: at })}
                onClick={() => setPart(i, null)}
              >
                {t('editor.remove')}
              </button>
            ) : null}
            {props.errors[p.key] ? (
              <span className="error rule-error" role="alert">
                {t(`errors.${props.errors[p.key]}`)}
              </span>
            ) : null}
          </div>
        );
      })}
      <div className="rule-leaf">
        <span className="faint">{t('editor.remainder')}</span>
        <CategorySelect
          label={t('editor.remainderCategory', { n })}
          value={a.categorySlug}
          categories={lists.categories}
          none={t('editor.uncategorised')}
          onChange={(categorySlug) => set({ categorySlug })}
        />
        <button type="button" className="btn small" onClick={() => set({ parts: [...a.parts, newPart()] })}>
          {t('editor.addPart')}
        </button>
      </div>
    </div>
  );
}
