/**
 * The foot of a team setting kept on the server with a secret (the mail server, the Peppol access point): Save, and
 * once saved Remove behind a confirmation, for those who may manage the team; a line saying who may for the others.
 * The words are the caller's, already translated.
 */
import { type ReactNode, useState } from 'react';
import { ConfirmDialog } from '../../components/ui';
import { useToasts } from '../../stores/toasts';

export interface SavedSettingWords {
  save: string;
  remove: string;
  removeTitle: string;
  removeText: ReactNode;
  removed: string;
  removeFailed: string;
  ownersOnly: string;
}

export function SavedSettingActions(props: {
  mayManage: boolean;
  saved: boolean;
  saving: boolean;
  removing: boolean;
  onRemove(): Promise<unknown>;
  words: SavedSettingWords;
}) {
  const { words } = props;
  const [confirming, setConfirming] = useState(false);
  const toast = useToasts();
  if (!props.mayManage) return <p className="faint">{words.ownersOnly}</p>;
  return (
    <>
      <div className="panel-actions">
        <button type="submit" className="btn primary" disabled={props.saving}>
          {words.save}
        </button>
        {props.saved ? (
          <button type="button" className="btn danger" onClick={() => setConfirming(true)}>
            {words.remove}
          </button>
        ) : null}
      </div>
      {confirming ? (
        <ConfirmDialog
          title={words.removeTitle}
          body={<p>{words.removeText}</p>}
          confirmLabel={words.remove}
          danger
          busy={props.removing}
          onConfirm={() =>
            props
              .onRemove()
              .then(() => toast.show(words.removed))
              .catch((err) => toast.error(err, words.removeFailed))
              .finally(() => setConfirming(false))
          }
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </>
  );
}
