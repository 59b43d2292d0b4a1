/** A progress bar with what is going on beside it; without a share done, it moves to and fro (indeterminate). */
export function Progress({ label, share }: { label: string; share: number | null }) {
  const percent = share === null ? undefined : Math.round(share * 100);
  return (
    <div className="progress-wrap">
      <div
        className={`progress ${share === null ? 'indeterminate' : ''}`}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <span style={{ width: percent === undefined ? undefined : `${percent}%` }} />
      </div>
      <span className="faint small">{label}…</span>
    </div>
  );
}
