/**
 * Import a bank file: drop or pick it, see the preview (format, the CSV column mapping — adjustable and previewed
 * again —, new / duplicate / matched-to-hand-entered / held-for-review / rejected counts, every row that is not
 * simply new with its reason, the balance check), commit it with a progress bar; the review queue for uncertain
 * matches; the batch list with undo; reconciliation against a statement balance with the difference and its
 * candidate lines.
 */
import { useState } from 'react';
import { bankAccountRoutes } from '../../../src-shared/contract/bank-accounts';
import { type ImportPreview, importRoutes } from '../../../src-shared/contract/import';
import type { CsvMapping } from '../../../src-shared/contract/import-mapping';
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
  const accounts = useRead(bankAccountRoutes.list, { query: {} });
  const [accountId, setAccountId] = useState('');
  const [phase, setPhase] = useState<Phase>({ step: 'idle' });
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const upload = useWrite(importRoutes.upload);
  const again = useWrite(importRoutes.preview);
  const commit = useWrite(importRoutes.commit);
  const toast = useToasts();
  const accountList = accounts.data?.data ?? [];
  const account = accountId || accountList[0]?.id || '';
  const currency = accountList.find((a) => a.id === (preview?.bankAccountId ?? account))?.currency ?? 'EUR';

  async function take(file: File) {
    if (!account) {
      setFailure(new Error('Choose the account this file is a statement of first.'));
      return;
    }
    setFailure(null);
    setPreview(null);
    try {
      setPhase({ step: 'reading', progress: 0, label: `Reading ${file.name}` });
      const content = await readBase64(file, (p) => setPhase({ step: 'reading', progress: p, label: `Reading ${file.name}` }));
      setPhase({ step: 'previewing', progress: null, label: 'Checking every row against your transactions' });
      setPreview(await upload.mutateAsync({ query: { bankAccountId: account }, body: { fileName: file.name, content } }));
    } catch (err) {
      setFailure(err);
    } finally {
      setPhase({ step: 'idle' });
    }
  }

  async function previewAgain(mapping: CsvMapping) {
    if (!preview) return;
    setPhase({ step: 'previewing', progress: null, label: 'Previewing with the new mapping' });
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
    setPhase({ step: 'committing', progress: null, label: `Importing ${formatNumber(preview.counts.rows)} rows` });
    setFailure(null);
    try {
      const result = await commit.mutateAsync({
        params: { id: preview.uploadId },
        body: { mapping: preview.mapping ?? undefined, ...options },
      });
      const c = result.batch.counts;
      toast.show(
        `Imported ${preview.fileName ?? 'the file'}: ${formatNumber(c.created)} new, ${formatNumber(c.linked)} matched, ${formatNumber(c.duplicate)} duplicates skipped, ${formatNumber(c.review)} to review`,
      );
      setPreview(null);
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
          <h1>Import</h1>
          <p>Bank files in, duplicates out: CSV, OFX/QFX, camt.053 and MT940. Nothing is written until you import.</p>
        </div>
      </header>

      <section className="card import-card" aria-label="Import a bank file">
        <div className="import-top">
          <label className="filter wide">
            <span>Account</span>
            <select
              className="select"
              value={account}
              onChange={(e) => setAccountId(e.target.value)}
              disabled={phase.step !== 'idle'}
            >
              {accountList.length === 0 ? <option value="">No bank account yet</option> : null}
              {accountList.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name} ({a.currency})
                </option>
              ))}
            </select>
          </label>
          <FileDrop
            inputLabel="Bank file"
            accept=".csv,.txt,.ofx,.qfx,.xml,.sta,.mt940"
            disabled={phase.step !== 'idle' || !account}
            onFile={(file) => void take(file)}
          >
            Drop a bank file here, or
          </FileDrop>
        </div>
        <div className="progress-slot">
          {phase.step !== 'idle' ? (
            <Progress label={phase.label} share={phase.progress} />
          ) : (
            <span className="faint small">
              The preview writes nothing: you see every row's outcome first, and an import can be undone.
            </span>
          )}
        </div>
        {failure ? <ErrorBanner error={failure} /> : null}
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
