/**
 * The work screens of this issue in navigation order. A screen whose API has not landed yet shows as "not built"
 * (with no sample figures) until it does. `titleKey` names the screen in its own namespace ("runway:title"), which
 * is the navigation label and the window title.
 */
import type { ReactNode } from 'react';
import { CategoriesScreen } from './categories/CategoriesScreen';
import { ImportScreen } from './import/ImportScreen';
import { InboxScreen } from './inbox/InboxScreen';
import { InvoicesScreen } from './invoices/InvoicesScreen';
import { RulesScreen } from './rules/RulesScreen';
import { RunwayScreen } from './runway/RunwayScreen';
import { SyncScreen } from './sync/SyncScreen';
import { TimeScreen } from './time/TimeScreen';
import { TransactionsScreen } from './transactions/TransactionsScreen';
import { WorkflowsScreen } from './workflows/WorkflowsScreen';

export interface ScreenEntry {
  path: string;
  titleKey: string;
  built: boolean;
  render: () => ReactNode;
}

export const SCREENS: ScreenEntry[] = [
  { path: '/invoices', titleKey: 'invoices:title', built: true, render: () => <InvoicesScreen /> },
  { path: '/time', titleKey: 'time:title', built: true, render: () => <TimeScreen /> },
  { path: '/transactions', titleKey: 'transactions:title', built: true, render: () => <TransactionsScreen /> },
  { path: '/inbox', titleKey: 'inbox:title', built: true, render: () => <InboxScreen /> },
  { path: '/import', titleKey: 'import:title', built: true, render: () => <ImportScreen /> },
  { path: '/rules', titleKey: 'rules:title', built: true, render: () => <RulesScreen /> },
  { path: '/categories', titleKey: 'categories:title', built: true, render: () => <CategoriesScreen /> },
  { path: '/runway', titleKey: 'runway:title', built: true, render: () => <RunwayScreen /> },
  { path: '/workflows', titleKey: 'workflows:title', built: true, render: () => <WorkflowsScreen /> },
  { path: '/sync', titleKey: 'sync:title', built: true, render: () => <SyncScreen /> },
];
