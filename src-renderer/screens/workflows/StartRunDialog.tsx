/**
 * Starting a run by hand: the workflow, the trigger it is started as (when it declares several a call may name),
 * and the trigger data its definition reads — asked for by what it is (src-shared/domain/workflow-trigger-inputs.ts):
 * a reminder run asks for its invoice, picked from the team's invoices, instead of starting without one and failing
 * at once. What every run needs is required before anything is sent.
 */
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { appWorkflowRoutes as workflowApi } from '../../../src-shared/contract/app-workflows';
import { DISPATCHABLE_TRIGGER_TYPES, WorkflowDefinition } from '../../../src-shared/contract/workflow-definition';
import { REFERENCE_KEYS, triggerInputs } from '../../../src-shared/domain/workflow-trigger-inputs';
import { Drawer } from '../../components/Drawer';
import { ErrorBanner, Field, Kbd } from '../../components/ui';
import { useCursorList } from '../../data/use-cursor-list';
import { useRecord } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { useToasts } from '../../stores/toasts';
import { type InputValue, TriggerInputField } from './TriggerInputField';

/** What a start form begins with: a workflow chosen, and trigger data to start again from (a failed run's). */
export interface StartFrom {
  workflowId?: string;
  triggerType?: string;
  triggerData?: Record<string, unknown>;
}

const isDispatchable = (type: string) => (DISPATCHABLE_TRIGGER_TYPES as readonly string[]).includes(type);

/** The trigger types a start may name that the definition declares, a manual start first. */
function startableTypes(definition: WorkflowDefinition | null): string[] {
  const declared = new Set(definition?.triggers.map((t) => t.type) ?? []);
  return DISPATCHABLE_TRIGGER_TYPES.filter((type) => declared.has(type)).sort((a, b) =>
    a === 'manual' ? -1 : b === 'manual' ? 1 : 0,
  );
}

export function StartRunDialog(props: { from: StartFrom; onClose: () => void; onStarted: (executionId: string) => void }) {
  const { t } = useTranslation('workflows');
  const workflows = useCursorList(workflowApi.list, { pageSize: 100 });
  // A workflow started only by its schedule cannot be started by hand.
  const startable = useMemo(
    () =>
      workflows.items.filter((w) => w.promotedVersion !== null && w.active && w.triggers.some((tr) => isDispatchable(tr.type))),
    [workflows.items],
  );
  const [choice, setChoice] = useState(props.from.workflowId ?? '');
  const workflowId = choice || startable[0]?.id || '';
  const detail = useRecord(workflowApi.get, { id: workflowId }, { enabled: Boolean(workflowId) });
  const definition = useMemo(() => {
    const parsed = WorkflowDefinition.safeParse(detail.data?.definition);
    return parsed.success ? parsed.data : null;
  }, [detail.data]);
  const types = startableTypes(definition);
  const [typeChoice, setTypeChoice] = useState(props.from.triggerType ?? '');
  const triggerType = types.includes(typeChoice) ? typeChoice : (types[0] ?? 'manual');
  const inputs = definition ? triggerInputs(definition, triggerType) : [];
  const [values, setValues] = useState<Record<string, InputValue | undefined>>(() => initialValues(props.from.triggerData));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const start = useWrite(workflowApi.start);
  const toast = useToasts();

  async function submit(e?: FormEvent) {
    e?.preventDefault();
    if (!workflowId) return;
    const missing = Object.fromEntries(
      inputs
        .filter((i) => i.required && !filled(values[i.key]))
        .map((i) => [i.key, i.resource ? t(`start.required.${i.resource}`) : t('start.required.value')]),
    );
    if (Object.keys(missing).length) return setErrors(missing);
    const triggerData: Record<string, string> = {};
    for (const i of inputs) {
      const v = values[i.key];
      if (filled(v)) triggerData[i.key] = typeof v === 'string' ? v.trim() : (v as { id: string }).id;
    }
    try {
      const ack = await start.mutateAsync({ params: { id: workflowId }, body: { triggerType, triggerData } });
      toast.show(t('start.started', { run: ack.runId }));
      props.onStarted(ack.executionId);
      props.onClose();
    } catch (err) {
      toast.error(err, t('start.failed'));
    }
  }

  return (
    <Drawer title={t('start.title')} onClose={props.onClose} onSubmit={() => void submit()} busy={start.isPending}>
      <form id="start-run-form" className="drawer-body" onSubmit={submit} noValidate>
        {workflows.error ? <ErrorBanner error={workflows.error} /> : null}
        {detail.error ? <ErrorBanner error={detail.error} /> : null}
        <Field label={t('start.which')} hint={startable.length ? undefined : t('start.noneHint')}>
          {({ id, describedBy }) => (
            <select
              id={id}
              className="select"
              value={workflowId}
              aria-describedby={describedBy}
              onChange={(e) => {
                setChoice(e.target.value);
                setErrors({});
              }}
              disabled={!startable.length}
            >
              {startable.length === 0 ? <option value="">{t('start.none')}</option> : null}
              {startable.map((w) => (
                <option key={w.id} value={w.id}>
                  {t('start.option', { name: w.name, version: w.promotedVersion })}
                </option>
              ))}
            </select>
          )}
        </Field>
        {detail.data?.description ? <p className="muted">{detail.data.description}</p> : null}
        {types.length > 1 ? (
          <Field label={t('start.triggerType')}>
            {({ id }) => (
              <select id={id} className="select" value={triggerType} onChange={(e) => setTypeChoice(e.target.value)}>
                {types.map((type) => (
                  <option key={type} value={type}>
                    {t(`triggers.${type}`, { defaultValue: type })}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : null}
        {inputs.length ? (
          <section className="form-section" aria-labelledby="start-inputs-title">
            <h3 id="start-inputs-title">{t('start.inputsTitle')}</h3>
            {inputs.map((input, i) => (
              <TriggerInputField
                key={`${workflowId}:${input.key}`}
                input={input}
                value={values[input.key]}
                error={errors[input.key]}
                autoFocus={i === 0}
                onChange={(v) => {
                  setValues((all) => ({ ...all, [input.key]: v }));
                  if (errors[input.key]) setErrors(({ [input.key]: _, ...rest }) => rest);
                }}
              />
            ))}
          </section>
        ) : definition ? (
          <p className="faint">{t('start.noInputs')}</p>
        ) : null}
      </form>
      <div className="drawer-footer">
        <button
          type="submit"
          form="start-run-form"
          className="btn primary"
          disabled={!workflowId || !definition || start.isPending}
        >
          {t('start.button')}
          <Kbd k="Ctrl ↵" />
        </button>
        <button type="button" className="btn" onClick={props.onClose} disabled={start.isPending}>
          {t('common:cancel')}
        </button>
      </div>
    </Drawer>
  );
}

function filled(v: InputValue | undefined): boolean {
  return v !== undefined && (typeof v !== 'string' || v.trim() !== '');
}

/** A failed run's data to start again from: its text values as typed (record pickers start empty). */
function initialValues(data: Record<string, unknown> | undefined): Record<string, InputValue | undefined> {
  return Object.fromEntries(
    Object.entries(data ?? {})
      .filter(([k, v]) => !REFERENCE_KEYS[k] && (typeof v === 'string' || typeof v === 'number'))
      .map(([k, v]) => [k, String(v)]),
  );
}
