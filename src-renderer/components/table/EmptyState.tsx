/** What a list shows when it has nothing to show: an optional icon, a title, a sentence, and what to do next. */
import type { ReactNode } from 'react';

export function EmptyState(props: {
  title: ReactNode;
  children?: ReactNode;
  icon?: ReactNode;
  /** A button or link: the way out of the empty state. */
  action?: ReactNode;
  /** `small-empty` in a side panel, `tx-empty` over the transactions grid. */
  className?: string;
}) {
  return (
    <div className={props.className ? `empty ${props.className}` : 'empty'}>
      {props.icon ? <div className="icon">{props.icon}</div> : null}
      <h2>{props.title}</h2>
      {props.children ? <p>{props.children}</p> : null}
      {props.action}
    </div>
  );
}
