/**
 * The conditions of a rule as a tree a person edits: a group says whether all, any, not all or none of its parts must
 * hold; a part compares one field (counterparty, amount, category, date…) with a value. Groups nest (to the API's
 * eight levels). Each control is named for screen readers by what it is and where.
 */
import { useTranslation } from 'react-i18next';
import type { BankAccount } from '../../../src-shared/contract/bank-accounts';
import type { TransactionCategory } from '../../../src-shared/contract/categories';
import { CategorySelect } from './CategorySelect';
import {
  CONDITION_FIELDS,
  type ConditionField,
  type DraftErrors,
  type GroupDraft,
  type LeafDraft,
  type NodeDraft,
  newGroup,
  newLeaf,
  OPS,
} from './rule-draft';

export interface EditorLists {
  categories: readonly TransactionCategory[];
  accounts: readonly BankAccount[];
  tags: readonly { id: string; name: string }[];
}

/** The API allows eight levels; the top group is the first. */
const MAX_DEPTH = 8;
const TEXT_FIELDS: readonly ConditionField[] = ['counterparty', 'name', 'description', 'note'];

type GroupMode = 'all' | 'any' | 'notAll' | 'none';
const MODES: readonly GroupMode[] = ['all', 'any', 'notAll', 'none'];
const modeOf = (g: GroupDraft): GroupMode => (g.negate ? (g.mode === 'all' ? 'notAll' : 'none') : g.mode);

export function ConditionGroup(props: {
  group: GroupDraft;
  onChange: (group: GroupDraft) => void;
  onRemove?: () => void;
  depth?: number;
  /** The group's place, for names ("2.1"). */
  path?: string;
  errors: DraftErrors;
  lists: EditorLists;
}) {
  const { t } = useTranslation('rules');
  const { group, onChange, errors, lists } = props;
  const depth = props.depth ?? 1;
  const path = props.path ?? '';
  const setChild = (i: number, child: NodeDraft | null) => {
    const children = [...group.children];
    if (child) children[i] = child;
    else children.splice(i, 1);
    onChange({ ...group, children });
  };
  return (
    <fieldset className={`rule-group depth-${Math.min(depth, 3)}`}>
      <legend className="sr-only">{path ? t('editor.groupN', { n: path }) : t('editor.conditions')}</legend>
      <div className="rule-group-head">
        <label className="inline">
          <span>{t('editor.match')}</span>
          <select
            className="select"
            value={modeOf(group)}
            onChange={(e) => {
              const mode = e.target.value as GroupMode;
              onChange({
                ...group,
                mode: mode === 'all' || mode === 'notAll' ? 'all' : 'any',
                negate: mode === 'notAll' || mode === 'none',
              });
            }}
          >
            {MODES.map((m) => (
              <option key={m} value={m}>
                {t(`editor.modes.${m}`)}
              </option>
            ))}
          </select>
        </label>
        {props.onRemove ? (
          <button type="button" className="btn ghost small" onClick={props.onRemove}>
            {t('editor.removeGroup')}
          </button>
        ) : null}
      </div>
      {errors[group.key] ? (
        <span className="error" role="alert">
          {t(`errors.${errors[group.key]}`)}
        </span>
      ) : null}
      <ol className="rule-parts">
        {group.children.map((child, i) => {
          const at = path ? `${path}.${i + 1}` : String(i + 1);
          return (
            <li key={child.key}>
              {child.kind === 'leaf' ? (
                <ConditionLeaf
                  leaf={child}
                  n={at}
                  error={errors[child.key]}
                  lists={lists}
                  onChange={(leaf) => setChild(i, leaf)}
                  onRemove={group.children.length > 1 || depth > 1 ? () => setChild(i, null) : undefined}
                />
              ) : (
                <ConditionGroup
                  group={child}
                  depth={depth + 1}
                  path={at}
                  errors={errors}
                  lists={lists}
                  onChange={(g) => setChild(i, g)}
                  onRemove={() => setChild(i, null)}
                />
              )}
            </li>
          );
        })}
      </ol>
      <div className="panel-actions">
        <button
          type="button"
          className="btn small"
          onClick={() => onChange({ ...group, children: [...group.children, newLeaf()] })}
        >
          {t('editor.addCondition')}
        </button>
        {depth < MAX_DEPTH ? (
          <button
            type="button"
            className="btn small ghost"
            onClick={() => onChange({ ...group, children: [...group.children, newGroup()] })}
          >
            {t('editor.addGroup')}
          </button>
        ) : null}
      </div>
    </fieldset>
  );
}

function ConditionLeaf(props: {
  leaf: LeafDraft;
  n: string;
  error: string | undefined;
  lists: EditorLists;
  onChange: (leaf: LeafDraft) => void;
  onRemove?: () => void;
}) {
  const { t } = useTranslation('rules');
  const { leaf, n, onChange } = props;
  const set = (patch: Partial<LeafDraft>) => onChange({ ...leaf, ...patch });
  const ops = OPS[leaf.field].includes(leaf.op) ? OPS[leaf.field] : [...OPS[leaf.field], leaf.op];
  return (
    <div className="rule-leaf" data-condition={n}>
      <select
        className="select"
        aria-label={t('editor.field', { n })}
        value={leaf.field}
        onChange={(e) => {
          const field = e.target.value as ConditionField;
          onChange({ ...leaf, field, op: OPS[field][0]!, value: '', value2: '' });
        }}
      >
        {CONDITION_FIELDS.map((f) => (
          <option key={f} value={f}>
            {t(`words.fields.${f}`)}
          </option>
        ))}
      </select>
      <select className="select" aria-label={t('editor.op', { n })} value={leaf.op} onChange={(e) => set({ op: e.target.value })}>
        {ops.map((op) => (
          <option key={op} value={op}>
            {t(`editor.ops.${op}`)}
          </option>
        ))}
      </select>
      <LeafValue leaf={leaf} n={n} lists={props.lists} set={set} />
      <label className="check small">
        <input type="checkbox" checked={leaf.negate} onChange={(e) => set({ negate: e.target.checked })} />
        {t('editor.not')}
      </label>
      {TEXT_FIELDS.includes(leaf.field) ? (
        <label className="check small">
          <input type="checkbox" checked={leaf.caseSensitive} onChange={(e) => set({ caseSensitive: e.target.checked })} />
          {t('editor.caseSensitive')}
        </label>
      ) : null}
      {props.onRemove ? (
        <button
          type="button"
          className="btn ghost small"
          aria-label={t('editor.removeCondition', { n })}
          onClick={props.onRemove}
        >
          {t('editor.remove')}
        </button>
      ) : null}
      {props.error ? (
        <span className="error rule-error" role="alert">
          {t(`errors.${props.error}`)}
        </span>
      ) : null}
    </div>
  );
}

function LeafValue(props: { leaf: LeafDraft; n: string; lists: EditorLists; set: (patch: Partial<LeafDraft>) => void }) {
  const { t } = useTranslation('rules');
  const { leaf, n, set, lists } = props;
  const label = t('editor.value', { n });
  const input = (key: 'value' | 'value2', type: string, name: string, extra: Record<string, string> = {}) => (
    <input
      className={`input ${type === 'text' && leaf.field !== 'currency' ? 'grow' : 'short'}`}
      type={type}
      aria-label={name}
      value={leaf[key]}
      onChange={(e) => set({ [key]: e.target.value })}
      {...extra}
    />
  );
  if (leaf.op === 'one_of')
    return (
      <textarea
        className="textarea grow"
        aria-label={t('editor.values', { n })}
        placeholder={t('editor.oneALine')}
        rows={2}
        value={leaf.value}
        onChange={(e) => set({ value: e.target.value })}
      />
    );
  switch (leaf.field) {
    case 'amount':
      if (leaf.op === 'sign')
        return (
          <select
            className="select"
            aria-label={label}
            value={leaf.value || 'expense'}
            onChange={(e) => set({ value: e.target.value })}
          >
            <option value="expense">{t('words.amount.expense')}</option>
            <option value="income">{t('words.amount.income')}</option>
          </select>
        );
      if (leaf.op === 'between')
        return (
          <>
            {input('value', 'text', t('editor.from', { n }), { inputMode: 'decimal' })}
            {input('value2', 'text', t('editor.to', { n }), { inputMode: 'decimal' })}
          </>
        );
      return (
        <>
          {input('value', 'text', label, { inputMode: 'decimal' })}
          {leaf.op === 'approx'
            ? input('value2', 'text', t('editor.tolerance', { n }), { inputMode: 'decimal', placeholder: '5' })
            : null}
        </>
      );
    case 'date':
      if (leaf.op === 'day_of_month')
        return (
          <>
            {input('value', 'number', t('editor.fromDay', { n }), { min: '1', max: '31' })}
            {input('value2', 'number', t('editor.toDay', { n }), { min: '1', max: '31' })}
          </>
        );
      return (
        <>
          {input('value', 'date', leaf.op === 'between' ? t('editor.from', { n }) : label)}
          {leaf.op === 'between' ? input('value2', 'date', t('editor.to', { n })) : null}
        </>
      );
    case 'category':
      if (leaf.op === 'empty') return null;
      return (
        <CategorySelect categories={lists.categories} label={label} value={leaf.value} onChange={(value) => set({ value })} />
      );
    case 'account':
      return (
        <select className="select grow" aria-label={label} value={leaf.value} onChange={(e) => set({ value: e.target.value })}>
          <option value="">{t('editor.choose')}</option>
          {lists.accounts.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      );
    case 'currency':
      return input('value', 'text', label, { maxLength: '3' });
    default:
      return input('value', 'text', label);
  }
}
