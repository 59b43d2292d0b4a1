/** A link inside the app: a click navigates without a reload; Ctrl/⌘/Shift-click opens a tab or window as usual. */
import type { ReactNode } from 'react';
import { useRouter } from '../lib/router';

export function AppLink(props: { to: string; children: ReactNode; className?: string }) {
  const navigate = useRouter((r) => r.navigate);
  return (
    <a
      href={props.to}
      className={props.className}
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        navigate(props.to);
      }}
    >
      {props.children}
    </a>
  );
}
