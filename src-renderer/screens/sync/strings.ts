/**
 * Every visible text of the Sync screen and the app frame's sync indicator, in one place, so that it moves into a
 * translation namespace (`src-renderer/i18n/<lang>/sync.json`) as it is: plain strings, and functions where a
 * sentence takes values.
 */
import type { SyncStatusBody } from '../../../src-shared/contract/app-sync';
import { formatNumber } from '../../lib/format';

type State = NonNullable<SyncStatusBody['remote']>['state'];

const TAKE = { local: 'Use value here', remote: 'Use remote value' } as const;

export const S = {
  title: 'Sync',
  intro: 'Keep this team’s data in step with a remote: another Finops Desk server or the hosted service.',
  ownerOnly: 'Only an owner of the team can connect a remote, sync and resolve conflicts. You can see the state here.',

  connectTitle: 'Connect a remote',
  connectIntro:
    'The remote keeps the shared copy. Each round pulls its changes, pushes this team’s, and records any conflict with both values.',
  address: 'Remote address',
  addressHint: 'The base URL of its API, ending in /v1.',
  addressPlaceholder: 'https://finops.example.com/v1',
  addressProblem: 'Enter an http or https address whose path ends in /v1.',
  kind: 'Kind of remote',
  kinds: { finops: 'Finops Desk server', hosted: 'Hosted service' } as const,
  apiKey: 'API key of the remote',
  apiKeyHint: (storage: SyncStatusBody['secretStorage']) =>
    `A key of the remote team with every scope (apis.all). This server keeps it ${keptIn(storage)}; never in its database.`,
  apiKeyMissing: 'Enter the API key.',
  oauthNotYet: 'Signing in with an account of the remote (OAuth) is not built yet: use an API key of the remote.',
  test: 'Test connection',
  testing: 'Testing…',
  connect: 'Connect and sync',
  connecting: 'Connecting…',
  testOk: (name: string | null, currency: string | null) =>
    `Connection works: the key belongs to the team ${name ? `“${name}”` : 'of the remote'}${currency ? ` (base currency ${currency})` : ''}.`,
  testFailed: 'The connection test failed',
  connected: 'Connected. The first round is running.',
  connectFailed: 'Could not connect the remote',

  statusTitle: 'Remote',
  states: {
    idle: 'Up to date',
    running: 'Syncing',
    failed: 'Last round failed',
    credentials_expired: 'Key refused',
    refused: 'Refused',
  } satisfies Record<State, string>,
  neverSynced: 'Not synced yet',
  offline: 'Offline',
  offlineDetail: 'The remote could not be reached in the last round. Changes made here wait and are sent when it answers again.',
  phase: (phase: string | null, done: number, total: number) =>
    `${phaseName(phase)}${total > 0 ? ` ${formatNumber(done)} of ${formatNumber(total)}` : ''}`,
  factAddress: 'Address',
  factKind: 'Kind',
  factLastSync: 'Last synced',
  factPending: 'Waiting to be sent',
  factConflicts: 'Open conflicts',
  factKey: 'API key',
  factRounds: 'Rounds',
  summary: (pulled: number, pushed: number, conflicts: number) =>
    `received ${formatNumber(pulled)}, sent ${formatNumber(pushed)}, ${formatNumber(conflicts)} conflict${conflicts === 1 ? '' : 's'}`,
  changes: (n: number) => (n === 0 ? 'nothing' : `${formatNumber(n)} change${n === 1 ? '' : 's'}`),
  keyFrom: {
    environment: 'from the server’s $FINOPS_REMOTE_TOKEN',
    'os-keychain': 'kept in the server’s OS keychain',
    'encrypted-file': 'kept encrypted by the desktop app (its machine has no OS keychain)',
    'session-only': 'kept in the server’s memory until it restarts (its machine has no OS keychain)',
    none: 'none: enter one below',
  },
  rounds: (scheduled: boolean) =>
    scheduled ? 'Every few minutes, soon after edits, and when you press Sync now' : 'When you press Sync now',
  lastError: 'The last round failed',
  keyMissingTitle: 'No API key is kept for this remote',
  keyMissingDetail: 'The server may have restarted without an OS keychain. Enter the key again to sync.',
  syncNow: 'Sync now',
  syncStarted: 'Sync started',
  syncFailed: 'Could not start a sync',
  replaceKey: 'Replace API key',
  saveKey: 'Save key',
  keySaved: 'Key saved',
  keyFailed: 'Could not save the key',
  cancel: 'Cancel',
  disconnect: 'Disconnect',
  disconnectTitle: 'Disconnect the remote?',
  disconnectBody:
    'This team stops syncing. Its data here stays; the sync bookkeeping (what was sent, open conflicts) and the kept key are removed. Connecting again starts with a full round.',
  disconnected: 'Remote disconnected',
  disconnectFailed: 'Could not disconnect',

  conflictsTitle: 'Conflicts',
  conflictsIntro:
    'A field changed on both sides to different values. The stated rule kept one value; take the other with one click, and it syncs like any edit.',
  showResolved: 'Show resolved',
  conflictsTable: 'Sync conflicts',
  noConflicts: 'No conflicts',
  noConflictsDetail: 'When a field is changed here and on the remote to different values, it shows here with both values.',
  colRecord: 'Record',
  colField: 'Field',
  colLocal: 'Value here',
  colRemote: 'Value on the remote',
  colKept: 'Kept by rule',
  colChoice: 'Choice',
  sides: { local: 'Here', remote: 'Remote' } as const,
  deleted: 'Deleted',
  refusedNote: 'This store refused the remote’s change (a reconciled or locked record).',
  takeLocal: TAKE.local,
  takeRemote: TAKE.remote,
  /** The button's accessible name starts with its visible text. */
  chooseLabel: (side: 'local' | 'remote', record: string) => `${TAKE[side]} for ${record}`,
  took: (side: 'local' | 'remote') => (side === 'local' ? 'Took the value here' : 'Took the remote value'),
  resolved: (side: 'local' | 'remote', record: string) =>
    `${side === 'local' ? 'Kept the value here' : 'Took the remote value'} for ${record}. It syncs with the next round.`,
  resolveFailed: 'Could not resolve the conflict',

  indicatorOffline: 'Sync offline',
  indicatorOfflineTitle: 'The team’s remote could not be reached in the last sync round',
  indicatorRunning: 'Syncing…',
  indicatorConflicts: (n: number) => `${formatNumber(n)} sync conflict${n === 1 ? '' : 's'}`,
  indicatorKey: 'Sync key refused',
};

export const ENTITY_LABELS: Record<string, string> = {
  tag: 'Tag',
  transaction_category: 'Category',
  bank_account: 'Bank account',
  customer: 'Customer',
  tracker_project: 'Project',
  tracker_entry: 'Time entry',
  transaction: 'Transaction',
  notification: 'Notification',
};

export const FIELD_LABELS: Record<string, string> = {
  amountMinor: 'Amount',
  rateMinor: 'Rate',
  categorySlug: 'Category',
  parentSlug: 'Parent category',
  counterpartyName: 'Counterparty',
  durationSeconds: 'Duration',
  customerId: 'Customer',
  projectId: 'Project',
  bankAccountId: 'Account',
  taxRate: 'Tax rate',
  taxType: 'Tax type',
  taxReportingCode: 'Tax reporting code',
};

export const VALUE_WORDS = { yes: 'Yes', no: 'No', empty: '—', none: 'none', parts: (n: number) => `${n} parts` };

const PHASES: Record<string, string> = {
  starting: 'Starting',
  push: 'Sending',
  pull: 'Receiving',
  walk: 'Comparing',
  done: 'Done',
};

/** `pull`, `push`, `walk transaction` (a generic remote's lists are walked one entity at a time). */
function phaseName(phase: string | null): string {
  const [head = '', ...rest] = (phase ?? '').split(' ');
  const name = PHASES[head] ?? (head ? head.charAt(0).toUpperCase() + head.slice(1) : 'Working');
  const entity = rest.join(' ');
  return entity ? `${name} ${(ENTITY_LABELS[entity] ?? entity).toLowerCase()} records` : name;
}

function keptIn(storage: SyncStatusBody['secretStorage']): string {
  return storage === 'os-keychain' ? 'in its OS keychain' : 'in its memory until it restarts (no OS keychain there)';
}
