/** A row of tabs that filter what is below them (`tabs` in styles.css): one is chosen; the row is named. */
export function Tabs<T extends string>(props: {
  label: string;
  tabs: readonly T[];
  value: T;
  onChange: (tab: T) => void;
  /** The tab's visible text. */
  text: (tab: T) => string;
}) {
  return (
    <div className="tabs" role="tablist" aria-label={props.label}>
      {props.tabs.map((tab) => (
        <button
          key={tab}
          type="button"
          role="tab"
          className="tab"
          aria-selected={props.value === tab}
          onClick={() => props.onChange(tab)}
        >
          {props.text(tab)}
        </button>
      ))}
    </div>
  );
}
