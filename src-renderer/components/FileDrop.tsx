/**
 * A place to drop a file, with a "Choose a file…" button for the keyboard and for those who do not drag: the button
 * opens the system's file picker (a visually hidden input named by `inputLabel`).
 */
import { type DragEvent, type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export function FileDrop(props: {
  /** The hidden file input's accessible name. */
  inputLabel: string;
  /** File types the picker offers (the input's `accept`). */
  accept: string;
  disabled?: boolean;
  onFile(file: File): void;
  /** The invitation beside the button ("Drop a bank file here, or"). */
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const file = e.dataTransfer.files[0];
    if (file) props.onFile(file);
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping a file adds to the keyboard-reachable "Choose a file…" button inside
    <div
      className={`dropzone ${dragging ? 'over' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <span>{props.children}</span>
      <button type="button" className="btn" onClick={() => inputRef.current?.click()} disabled={props.disabled}>
        {t('chooseFile')}
      </button>
      <input
        ref={inputRef}
        type="file"
        className="sr-only"
        aria-label={props.inputLabel}
        accept={props.accept}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) props.onFile(file);
        }}
      />
    </div>
  );
}
