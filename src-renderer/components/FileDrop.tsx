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
  /** Several files at once (each is given to `onFile` in turn). */
  multiple?: boolean;
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
    const files = [...e.dataTransfer.files];
    for (const file of props.multiple ? files : files.slice(0, 1)) props.onFile(file);
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
        multiple={props.multiple}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          for (const file of files) props.onFile(file);
        }}
      />
    </div>
  );
}
