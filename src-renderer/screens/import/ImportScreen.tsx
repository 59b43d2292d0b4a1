/**
 * Import a bank file: drop or pick it, see the preview (format, the CSV column mapping — adjustable and previewed
 * again —, new / duplicate / matched-to-hand-entered / held-for-review / rejected counts, every row that is not
 * simply new with its reason, the balance check), commit it with a progress bar; the review queue for uncertain
 * matches; the batch list with undo; reconciliation against a statement balance with the difference and its
 * candidate lines.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bankAccountRoutes } from '../../../src-shared/contract/bank-accounts';
import { type ImportPreview, importRoutes } from '../../../src-shared/contract/import';
import type { CsvMapping } from '../../../src-shared/contract/import-mapping';
import { AppLink } from '../../components/AppLink';
import { FileDrop } from '../../components/FileDrop';
import { Progress } from '../../components/Progress';
import { ErrorBanner } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { formatNumber } from '../../lib/format';
import { readBase64 } from '../../lib/read-file';
import { useToasts } from '../../stores/toasts';
import { Batches } from './Batches';
import { type CommitOptions, PreviewPanel } from './PreviewPanel';
import { Reconcile } from './Reconcile';
import { ReviewQueue } from './ReviewQueue';

type Phase = { step: 'idle' } | { step: 'reading' | 'previewing' | 'committing'; progress: number | null; label: string };

export function ImportScreen() {
  const { t } = useTranslation('import');
  const accounts = useRead(bankAccountRoutes.list, { query: {} });
  const [accountId, setAccountId] = useState('');
  const [phase, setPhase] = useState<Phase>({ step: 'idle' });
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [done, setDone] = useState<{ name: string; batchId: string } | null>(null);
  const upload = useWrite(importRoutes.upload);
  const again = useWrite(importRoutes.preview);
  const commit = useWrite(importRoutes.commit);
  const toast = useToasts();
  const accountList = accounts.data?.data ?? [];
  const account = accountId || accountList[0]?.id || '';
  const currency = accountList.find((a) => a.id === (preview?.bankAccountId ?? account))?.currency ?? 'EUR';

  async function take(file: File) {
    if (!account) {
      setFailure(new Error(t('chooseAccountFirst')));
      return;
    }
    setFailure(null);
    setPreview(null);
    try {
      const reading = t('phase.reading', { name: file.name });
      setPhase({ step: 'reading', progress: 0, label: reading });
      const content = await readBase64(file, (p) => setPhase({ step: 'reading', progress: p, label: reading }));
      setPhase({ step: 'previewing', progress: null, label: t('phase.checking') });
      setPreview(await upload.mutateAsync({ query: { bankAccountId: account }, body: { fileName: file.name, content } }));
    } catch (err) {
      setFailure(err);
    } finally {
      setPhase({ step: 'idle' });
    }
  }

  async function previewAgain(mapping: CsvMapping) {
    if (!preview) return;
    setPhase({ step: 'previewing', progress: null, label: t('phase.remapping') });
    setFailure(null);
    try {
      setPreview(await again.mutateAsync({ params: { id: preview.uploadId }, body: { mapping } }));
    } catch (err) {
      setFailure(err);
    } finally {
      setPhase({ step: 'idle' });
    }
  }

  async function doCommit(options: CommitOptions) {
    if (!preview) return;
    setPhase({ step: 'committing', progress: null, label: t('phase.importing', { count: preview.counts.rows }) });
    setFailure(null);
    try {
      const result = await commit.mutateAsync({
        params: { id: preview.uploadId },
        body: { mapping: preview.mapping ?? undefined, ...options },
      });
      const c = result.batch.counts;
      toast.show(
        t('imported', {
          name: preview.fileName ?? t('theFile'),
          created: formatNumber(c.created),
          linked: formatNumber(c.linked),
          duplicate: formatNumber(c.duplicate),
          review: formatNumber(c.review),
        }),
      );
      setPreview(null);
      setDone({ name: preview.fileName ?? t('theFile'), batchId: result.batch.id });
    } catch (err) {
      setFailure(err);
    } finally {
      setPhase({ step: 'idle' });
    }
  }

  return (
    <div className="page import-page">
      <header className="page-header">
        <div>
          <h1>{t('title')}</h1>
          <p>{t('intro')}</p>
        </div>
      </header>

      <section className="card import-card" aria-label={t('fileSection')}>
        <div className="import-top">
          <label className="filter wide">
            <span>{t('account')}</span>
            <select
              className="select"
              value={account}
              onChange={(e) => setAccountId(e.target.value)}
              disabled={phase.step !== 'idle'}
            >
              {accountList.length === 0 ? <option value="">{t('noAccount')}</option> : null}
              {accountList.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name} ({a.currency})
                </option>
              ))}
            </select>
          </label>
          <FileDrop
            inputLabel={t('bankFile')}
            accept=".csv,.txt,.ofx,.qfx,.xml,.sta,.mt940"
            disabled={phase.step !== 'idle' || !account}
            onFile={(file) => void take(file)}
          >
            {t('drop')}
          </FileDrop>
        </div>
        <div className="progress-slot">
          {phase.step !== 'idle' ? (
            <Progress label={phase.label} share={phase.progress} />
          ) : (
            <span className="faint small">{t('previewWritesNothing')}</span>
          )}
        </div>
        {failure ? <ErrorBanner error={failure} /> : null}
        {done && !preview ? <ImportDone {...done} onDismiss={() => setDone(null)} /> : null}
        {preview ? (
          <PreviewPanel
            preview={preview}
            currency={currency}
            busy={phase.step !== 'idle'}
            onRemap={(m) => void previewAgain(m)}
            onCommit={(o) => void doCommit(o)}
            onCancel={() => setPreview(null)}
          />
        ) : null}
      </section>

      <ReviewQueue />
      <Batches />
      <Reconcile accounts={accountList} />
    </div>
  );
}

/**
 * After an import: where its transactions are (the list narrowed to the batch) and, from them, a rule for the next
 * file (the rules screen, told which batch the rule is to be made from).
 */
function ImportDone(props: { name: string; batchId: string; onDismiss: () => void }) {
  const { t } = useTranslation('import');
  const batch = encodeURIComponent(props.batchId);
  return (
    <div className="banner ok import-done" role="status">
      <div className="grow">
        <strong>{t('done.text', { name: props.name })}</strong>{' '}
        <AppLink to={`/transactions?state=all&batch=${batch}`}>{t('done.show')}</AppLink>
        {' · '}
        <AppLink to={`/rules?fromBatch=${batch}`}>{t('done.rule')}</AppLink>
      </div>
      <button type="button" className="btn ghost small" onClick={props.onDismiss}>
        {t('done.dismiss')}
      </button>
    </div>
  );
}
