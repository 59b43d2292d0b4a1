/**
 * Writing a rule (new, from a suggestion, or an existing one): its name, when it runs, its conditions and actions,
 * and beside them the dry run over every transaction (what it would change, computed by the server as the run itself
 * would) before anything is saved. Saving may also apply it at once to the transactions the preview lists. A rule
 * started from an import (`scopeIds`: its rows) previews and applies over those rows only, with `intro` saying how
 * it was proposed. A saved rule lists the actions that could not apply when it ran.
 */
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RULE_TRIGGERS, type Rule, ruleRoutes } from '../../../src-shared/contract/rules';
import { RULE_STAGES } from '../../../src-shared/domain/rules';
import { FormDrawer } from '../../components/FormDrawer';
import { ConfirmDialog, Field } from '../../components/ui';
import { useWrite } from '../../data/use-write';
import { api } from '../../lib/api';
import { useToasts } from '../../stores/toasts';
import { ActionsEditor } from './ActionsEditor';
import { ConditionGroup } from './ConditionsEditor';
import { DryRunPreview } from './DryRunPreview';
import { RuleFailures } from './RuleFailures';
import { inputOf, type RuleDraft } from './rule-draft';
import { conditionWords } from './rule-words';
import { useDryRun } from './use-dry-run';
import { useRuleNames } from './use-rule-names';

export function RuleEditor(props: {
  rule?: Rule;
  initial: RuleDraft;
  onClose: () => void;
  scopeIds?: readonly string[];
  intro?: ReactNode;
}) {
  const { t } = useTranslation('rules');
  const { names, ...lists } = useRuleNames();
  const [draft, setDraft] = useState(props.initial);
  const [showErrors, setShowErrors] = useState(false);
  const [applyNow, setApplyNow] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [deleting, setDeleting] = useState(false);
  const [busy, setBusy] = useState(false);
  const parsed = useMemo(() => inputOf(draft), [draft]);
  const dryRun = useDryRun(parsed.input ?? null, props.scopeIds);
  const create = useWrite(ruleRoutes.create);
  const update = useWrite(ruleRoutes.update);
  const remove = useWrite(ruleRoutes.delete);
  const toast = useToasts();
  const errors = showErrors ? (parsed.errors ?? {}) : {};
  const set = (patch: Partial<RuleDraft>) => setDraft({ ...draft, ...patch });
  const wouldChange = dryRun.data?.changed ?? 0;

  async function save() {
    setShowErrors(true);
    setFailure(null);
    const input = parsed.input;
    if (!input) return;
    setBusy(true);
    try {
      const saved = props.rule
        ? await update.mutateAsync({ params: { id: props.rule.id }, body: input })
        : await create.mutateAsync({ body: input });
      // The same scope as the preview (every transaction, or the import's rows), so it changes exactly what it showed.
      const scope = props.scopeIds ? { ids: [...props.scopeIds] } : {};
      const applied =
        applyNow && wouldChange > 0 ? (await api.call(ruleRoutes.run, { params: { id: saved.id }, body: scope })).changed : 0;
      toast.show(
        applied ? t('editor.savedApplied', { name: saved.name, count: applied }) : t('editor.saved', { name: saved.name }),
      );
      props.onClose();
    } catch (err) {
      setFailure(err);
    } finally {
      setBusy(false);
    }
  }

  async function destroy() {
    if (!props.rule) return;
    setBusy(true);
    try {
      await remove.mutateAsync({ params: { id: props.rule.id } });
      toast.show(t('editor.deleted', { name: props.rule.name }));
      props.onClose();
    } catch (err) {
      setFailure(err);
      setDeleting(false);
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormDrawer
      title={props.rule ? t('editor.editTitle', { name: props.rule.name }) : t('editor.newTitle')}
      saveLabel={t('editor.save')}
      onSave={() => void save()}
      onClose={props.onClose}
      busy={busy}
      failure={failure}
      className="rule-editor"
      onDelete={props.rule ? () => setDeleting(true) : undefined}
      deleting={
        deleting && props.rule ? (
          <ConfirmDialog
            title={t('editor.deleteTitle', { name: props.rule.name })}
            body={t('editor.deleteText')}
            confirmLabel={t('common:delete')}
            danger
            busy={busy}
            onConfirm={() => void destroy()}
            onCancel={() => setDeleting(false)}
          />
        ) : null
      }
    >
      {props.intro}
      <section className="form-section">
        <div className="grid-2">
          <Field label={t('editor.name')} required error={errors.name ? t(`errors.${errors.name}`) : undefined}>
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                className="input"
                value={draft.name}
                maxLength={200}
                aria-invalid={invalid}
                aria-describedby={describedBy}
                onChange={(e) => set({ name: e.target.value })}
              />
            )}
          </Field>
          <Field label={t('editor.stage')} hint={t('editor.stageHint')}>
            {({ id, describedBy }) => (
              <select
                id={id}
                className="select"
                value={draft.stage}
                aria-describedby={describedBy}
                onChange={(e) => set({ stage: e.target.value as RuleDraft['stage'] })}
              >
                {RULE_STAGES.map((s) => (
                  <option key={s} value={s}>
                    {t(`stages.${s}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <fieldset className="rule-runs">
          <legend>{t('editor.runsBy')}</legend>
          <label className="check">
            <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
            {t('editor.enabled')}
          </label>
          {RULE_TRIGGERS.map((trigger) => (
            <label key={trigger} className="check">
              <input
                type="checkbox"
                disabled={!draft.enabled}
                checked={draft.applyOn.includes(trigger)}
                onChange={(e) =>
                  set({ applyOn: e.target.checked ? [...draft.applyOn, trigger] : draft.applyOn.filter((x) => x !== trigger) })
                }
              />
              {t(`applyOn.${trigger}`)}
            </label>
          ))}
        </fieldset>
      </section>

      <section className="form-section">
        <h3>{t('editor.when')}</h3>
        <ConditionGroup group={draft.root} errors={errors} lists={lists} onChange={(root) => set({ root })} />
        {parsed.input ? (
          <p className="faint small" data-testid="rule-in-words">
            {conditionWords(parsed.input.conditions, names)}
          </p>
        ) : null}
      </section>

      <section className="form-section">
        <h3>{t('editor.then')}</h3>
        <ActionsEditor actions={draft.actions} errors={errors} lists={lists} onChange={(actions) => set({ actions })} />
      </section>

      <section className="form-section" aria-labelledby="rule-preview-title">
        <h3 id="rule-preview-title">{t('preview.heading')}</h3>
        <DryRunPreview result={dryRun} names={names} incomplete={!parsed.input} batch={props.scopeIds !== undefined} />
        {wouldChange > 0 ? (
          <label className="check">
            <input type="checkbox" checked={applyNow} onChange={(e) => setApplyNow(e.target.checked)} />
            {t('editor.applyNow', { count: wouldChange })}
          </label>
        ) : null}
      </section>

      {props.rule ? <RuleFailures ruleId={props.rule.id} /> : null}
    </FormDrawer>
  );
}
