/**
 * The work screens of this issue in navigation order. A screen whose API has not landed yet shows as "not built"
 * (with no sample figures) until it does.
 */
import type { ReactNode } from 'react';
import { ImportScreen } from './import/ImportScreen';
import { RunwayScreen } from './runway/RunwayScreen';
import { SyncScreen } from './sync/SyncScreen';
import { TransactionsScreen } from './transactions/TransactionsScreen';
import { WorkflowsScreen } from './workflows/WorkflowsScreen';

export interface ScreenEntry {
  path: string;
  label: string;
  built: boolean;
  render: () => ReactNode;
}

export const SCREENS: ScreenEntry[] = [
  { path: '/transactions', label: 'Transactions', built: true, render: () => <TransactionsScreen /> },
  { path: '/import', label: 'Import', built: true, render: () => <ImportScreen /> },
  { path: '/runway', label: 'Runway', built: true, render: () => <RunwayScreen /> },
  { path: '/workflows', label: 'Workflows', built: true, render: () => <WorkflowsScreen /> },
  { path: '/sync', label: 'Sync', built: true, render: () => <SyncScreen /> },
];
