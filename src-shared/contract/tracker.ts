import { z } from 'zod';
import { isCurrencyCode } from '../money';
import { ClientId, multiValue, PageSize } from './common';
import { BooleanQuery, CursorQuery, idParams, pageOf, type SortOrder, sortParam } from './list';
import { defineRoute } from './route';
import { TagRef } from './tags';

/**
 * Time tracking: projects, entries and the timer, with the hosted service's routes and field names
 * (docs/decisions/0080-tracker.md). Durations are whole seconds; amounts are decimal numbers in the project's
 * currency, computed from integer minor units: an entry's amount is duration × hourly rate rounded half up to the
 * currency's minor unit, and every total is the sum of its entries' amounts (so totals always add up).
 */

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

const Text = (max: number) =>
  z.preprocess(emptyToNull, z.string().trim().max(max, `must be at most ${max} characters`).nullable()).optional();

export const Currency = z.string().trim().toUpperCase().refine(isCurrencyCode, 'must be an ISO 4217 currency code such as EUR');

/** An instant: ISO 8601 with a time zone offset or Z; stored and answered in UTC. */
export const Instant = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time with offset, e.g. 2025-03-01T09:00:00Z' })
  .transform((v) => new Date(v).toISOString());

export const IsoDate = z.iso.date('must be a date YYYY-MM-DD');

const TagInput = z.strictObject({ id: z.string().min(1).max(200), name: z.string().max(100).optional() });

export const TRACKER_PROJECT_STATUSES = ['in_progress', 'completed'] as const;

const ProjectName = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

const projectFields = {
  description: Text(5000),
  estimate: z.number().min(0).max(1_000_000).nullable().optional().describe('estimated hours'),
  billable: z.boolean().optional(),
  rate: z
    .number()
    .min(0)
    .max(1_000_000, 'must be at most 1000000')
    .nullable()
    .optional()
    .describe('hourly rate in major units of currency'),
  currency: z.preprocess(emptyToNull, Currency.nullable()).optional().describe('default: the team base currency'),
  status: z.enum(TRACKER_PROJECT_STATUSES).optional(),
  customerId: z.preprocess(emptyToNull, z.string().max(200).nullable()).optional(),
  tags: z.array(TagInput).max(100, 'at most 100 tags').optional(),
};

export const TrackerProjectCreate = z.strictObject({ id: ClientId.optional(), name: ProjectName, ...projectFields });
export type TrackerProjectCreate = z.infer<typeof TrackerProjectCreate>;
export const TrackerProjectPatch = z.strictObject({ name: ProjectName.optional(), ...projectFields });
export type TrackerProjectPatch = z.infer<typeof TrackerProjectPatch>;

export const TrackerProject = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    estimate: z.number().nullable().describe('estimated hours'),
    billable: z.boolean(),
    rate: z.number().nullable().describe('hourly rate in currency'),
    currency: z.string().nullable(),
    status: z.enum(TRACKER_PROJECT_STATUSES),
    customerId: z.string().nullable(),
    customer: z.object({ id: z.string(), name: z.string() }).nullable(),
    tags: z.array(TagRef),
    totalDuration: z.number().int().describe('seconds of finished entries'),
    totalAmount: z.number().describe('billable amount of finished entries, in currency'),
    unbilledDuration: z.number().int().describe('seconds of finished entries not yet on an invoice'),
    unbilledAmount: z.number().describe('billable amount of finished entries not yet on an invoice'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'TrackerProject' });
export type TrackerProject = z.infer<typeof TrackerProject>;

export const TRACKER_PROJECT_SORT_COLUMNS = ['created_at', 'name', 'status', 'customer', 'time', 'amount'] as const;
export type TrackerProjectSortColumn = (typeof TRACKER_PROJECT_SORT_COLUMNS)[number];

export const TrackerProjectListQuery = z.object({
  q: z.string().max(200).optional().describe('full-text search over name and description, prefix matching'),
  status: z.enum(TRACKER_PROJECT_STATUSES).optional(),
  customers: multiValue(z.string().min(1).max(200)).describe('customer ids (repeated key)'),
  tags: multiValue(z.string().min(1).max(200)).describe('tag ids (repeated key); projects with any of them'),
  billable: BooleanQuery,
  sort: sortParam(TRACKER_PROJECT_SORT_COLUMNS, 'created_at desc'),
  cursor: CursorQuery,
  pageSize: PageSize,
});
export type TrackerProjectListQuery = z.infer<typeof TrackerProjectListQuery>;
export type TrackerProjectSort = SortOrder<TrackerProjectSortColumn>;

// ---------------------------------------------------------------------------------------------------------------

const Seconds = z
  .number()
  .int('must be whole seconds')
  .min(0)
  .max(7 * 86_400, 'must be at most 7 days');

const entryFields = {
  start: Instant,
  stop: Instant.optional().describe('default: start + duration'),
  duration: Seconds.optional().describe('seconds; default: stop − start'),
  date: IsoDate.optional().describe("default: the start's date in the assignee's time zone"),
  description: Text(5000),
  assignedId: z.preprocess(emptyToNull, z.string().max(200).nullable()).optional().describe('default: the caller'),
  categoryId: z
    .preprocess(emptyToNull, z.string().max(200).nullable())
    .optional()
    .describe('a tracker category (activity type) of the team; its rate applies when the project has none'),
};

/** The most days one hosted-shaped entry may name (a year of days: what the range list shows at once). */
export const MAX_ENTRY_DATES = 366;
/** The most entries one request may create, days expanded (bulk: 100 items, each for several days). */
export const MAX_ENTRIES_PER_REQUEST = 1000;

export const TrackerEntryCreate = z.strictObject({
  id: ClientId.optional(),
  projectId: z.string().min(1).max(200),
  ...entryFields,
  dates: z
    .array(IsoDate)
    .min(1, 'at least one day')
    .max(MAX_ENTRY_DATES, `at most ${MAX_ENTRY_DATES} days`)
    .refine((d) => new Set(d).size === d.length, 'each day at most once')
    .optional()
    .describe(
      "the hosted service's shape: one entry for each of these days, at start's and stop's wall-clock times in the assignee's time zone (with `dates` the answer is {data: [entries]}, as the hosted service answers)",
    ),
});
export type TrackerEntryCreate = z.infer<typeof TrackerEntryCreate>;

export const TrackerEntryPatch = z.strictObject({
  projectId: z.string().min(1).max(200).optional(),
  start: Instant.optional(),
  stop: Instant.optional(),
  duration: Seconds.optional(),
  date: IsoDate.optional(),
  description: Text(5000),
  assignedId: entryFields.assignedId,
  categoryId: entryFields.categoryId,
});
export type TrackerEntryPatch = z.infer<typeof TrackerEntryPatch>;

/**
 * The hosted bulk body is `{entries: [...]}` (its schema), a bare JSON array is accepted too; each entry may name
 * `dates`. All or nothing.
 */
export const TrackerEntryBulkCreate = z.preprocess(
  (v) => (v && typeof v === 'object' && !Array.isArray(v) && 'entries' in v ? (v as { entries: unknown }).entries : v),
  z.array(TrackerEntryCreate).min(1, 'at least one entry').max(100, 'at most 100 entries'),
);

export const TrackerEntry = z
  .object({
    id: z.string(),
    projectId: z.string(),
    project: z.object({
      id: z.string(),
      name: z.string(),
      billable: z.boolean(),
      rate: z.number().nullable(),
      currency: z.string().nullable(),
    }),
    assignedId: z.string().nullable(),
    assigned: z.object({ id: z.string(), fullName: z.string() }).nullable(),
    categoryId: z.string().nullable(),
    category: z.object({ id: z.string(), name: z.string(), color: z.string() }).nullable(),
    rate: z.number().nullable().describe("the hourly rate the amount uses: the project's, else the category's"),
    rateSource: z.enum(['project', 'category']).nullable().describe('where `rate` comes from; null: no rate'),
    billable: z.boolean().describe('the project and the category (if any) are billable'),
    date: z.string(),
    start: z.string(),
    stop: z.string().nullable().describe('null while the timer runs'),
    duration: z.number().int().describe('seconds; while running, the time elapsed so far'),
    description: z.string().nullable(),
    running: z.boolean(),
    billed: z.boolean().describe('on an invoice'),
    invoiceId: z.string().nullable(),
    amount: z.number().describe('billable amount in the project currency (0 while running or not billable)'),
    currency: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'TrackerEntry' });
export type TrackerEntry = z.infer<typeof TrackerEntry>;

export const TrackerEntryList = z.object({ data: z.array(TrackerEntry) }).meta({ id: 'TrackerEntryList' });

export const TrackerEntryRangeQuery = z.object({
  from: IsoDate.optional().describe('first date (inclusive); default: 30 days before `to`'),
  to: IsoDate.optional().describe('last date (inclusive); default: today (UTC)'),
  projectId: z.string().min(1).max(200).optional(),
  assignedId: z.string().min(1).max(200).optional(),
});
export type TrackerEntryRangeQuery = z.infer<typeof TrackerEntryRangeQuery>;

const AmountByCurrency = z.object({ currency: z.string(), amount: z.number() });

export const TrackerEntryRange = z
  .object({
    meta: z.object({
      from: z.string(),
      to: z.string(),
      totalDuration: z.number().int().describe('seconds of finished entries in the range'),
      totalAmount: z.number().describe('amount in meta.currency'),
      currency: z.string().nullable().describe('the only currency of the range, else the team base currency'),
      byCurrency: z.array(AmountByCurrency).describe('amounts of every currency in the range'),
    }),
    result: z.record(z.string(), z.array(TrackerEntry)).describe('entries by date (YYYY-MM-DD), oldest first'),
    totals: z
      .record(z.string(), z.object({ totalDuration: z.number().int(), byCurrency: z.array(AmountByCurrency) }))
      .describe('per date'),
  })
  .meta({ id: 'TrackerEntryRange' });
export type TrackerEntryRange = z.infer<typeof TrackerEntryRange>;

export const TimerStart = z.strictObject({
  projectId: z.string().min(1).max(200),
  description: Text(5000),
  assignedId: entryFields.assignedId,
  categoryId: entryFields.categoryId,
  start: Instant.optional().describe('default: now'),
});
export type TimerStart = z.infer<typeof TimerStart>;

/** The body is optional: no body stops the caller's running timer now. */
export const TimerStop = z.preprocess(
  (v) => v ?? {},
  z.strictObject({
    entryId: z.string().min(1).max(200).optional().describe("default: the caller's running timer"),
    stop: Instant.optional().describe('default: now'),
  }),
);
export type TimerStop = z.infer<typeof TimerStop>;

export const TimerStopped = TrackerEntry.extend({
  discarded: z.boolean().describe('true when the entry ran under 60 seconds and was deleted instead of kept'),
}).meta({ id: 'TimerStopped' });

export const TimerStatus = z
  .object({
    isRunning: z.boolean(),
    currentEntry: TrackerEntry.nullable(),
    elapsedTime: z.number().int().describe('seconds since the running entry started; 0 when none runs'),
  })
  .meta({ id: 'TimerStatus' });

export const ENTRY_MIN_SECONDS = 60;

const ProjectIdParams = idParams();
const EntryIdParams = idParams();

export const trackerRoutes = {
  listProjects: defineRoute({
    method: 'GET',
    path: '/tracker-projects',
    tag: 'tracker',
    summary: 'List, search and filter tracker projects with their totals',
    scopes: ['tracker-projects.read'],
    query: TrackerProjectListQuery,
    responses: { 200: pageOf(TrackerProject) },
  }),
  getProject: defineRoute({
    method: 'GET',
    path: '/tracker-projects/:id',
    tag: 'tracker',
    summary: 'Retrieve a tracker project with its totals',
    scopes: ['tracker-projects.read'],
    params: ProjectIdParams,
    responses: { 200: TrackerProject },
  }),
  createProject: defineRoute({
    method: 'POST',
    path: '/tracker-projects',
    tag: 'tracker',
    summary: 'Create a tracker project',
    scopes: ['tracker-projects.write'],
    idempotent: true,
    body: TrackerProjectCreate,
    responses: { 200: TrackerProject },
  }),
  updateProject: defineRoute({
    method: 'PATCH',
    path: '/tracker-projects/:id',
    tag: 'tracker',
    summary: 'Change the supplied fields of a tracker project (tags replaces the set)',
    scopes: ['tracker-projects.write'],
    idempotent: true,
    params: ProjectIdParams,
    body: TrackerProjectPatch,
    responses: { 200: TrackerProject },
  }),
  deleteProject: defineRoute({
    method: 'DELETE',
    path: '/tracker-projects/:id',
    tag: 'tracker',
    summary: 'Delete a project and its entries (409 while any entry is on an invoice); returns the deleted project',
    scopes: ['tracker-projects.write'],
    params: ProjectIdParams,
    responses: { 200: TrackerProject },
  }),
  listEntries: defineRoute({
    method: 'GET',
    path: '/tracker-entries',
    tag: 'tracker',
    summary: 'Entries of a date range (at most 366 days), grouped by date, with totals',
    scopes: ['tracker-entries.read'],
    query: TrackerEntryRangeQuery,
    responses: { 200: TrackerEntryRange },
  }),
  getEntry: defineRoute({
    method: 'GET',
    path: '/tracker-entries/:id',
    tag: 'tracker',
    summary: 'Retrieve a tracker entry (extension)',
    scopes: ['tracker-entries.read'],
    params: EntryIdParams,
    responses: { 200: TrackerEntry },
  }),
  createEntry: defineRoute({
    method: 'POST',
    path: '/tracker-entries',
    tag: 'tracker',
    summary: 'Record finished time: start and stop, or start and duration; with `dates`, one entry per day',
    description:
      "Our shape answers the entry. The hosted service's shape (`dates`: one entry per listed day) answers {data: [entries]}, as the hosted service does (docs/decisions/0163).",
    scopes: ['tracker-entries.write'],
    idempotent: true,
    body: TrackerEntryCreate,
    responses: { 200: z.union([TrackerEntry, TrackerEntryList]) },
  }),
  bulkCreateEntries: defineRoute({
    method: 'POST',
    path: '/tracker-entries/bulk',
    tag: 'tracker',
    summary: 'Record up to 100 entries at once: all are created or none (422 names the failing index)',
    scopes: ['tracker-entries.write'],
    idempotent: true,
    body: TrackerEntryBulkCreate,
    responses: { 200: TrackerEntryList },
  }),
  updateEntry: defineRoute({
    method: 'PATCH',
    path: '/tracker-entries/:id',
    tag: 'tracker',
    summary: 'Change the supplied fields of an entry (409 for the time or project of a billed entry)',
    scopes: ['tracker-entries.write'],
    idempotent: true,
    params: EntryIdParams,
    body: TrackerEntryPatch,
    responses: { 200: TrackerEntry },
  }),
  deleteEntry: defineRoute({
    method: 'DELETE',
    path: '/tracker-entries/:id',
    tag: 'tracker',
    summary: 'Delete an entry (409 when it is on an invoice); returns the deleted entry',
    scopes: ['tracker-entries.write'],
    params: EntryIdParams,
    responses: { 200: TrackerEntry },
  }),
  startTimer: defineRoute({
    method: 'POST',
    path: '/tracker-entries/timer/start',
    tag: 'tracker',
    summary: "Start the caller's timer on a project; a timer already running is stopped first (and discarded under 60 s)",
    scopes: ['tracker-entries.write'],
    body: TimerStart,
    responses: { 201: TrackerEntry },
  }),
  stopTimer: defineRoute({
    method: 'POST',
    path: '/tracker-entries/timer/stop',
    tag: 'tracker',
    summary: 'Stop the running timer; an entry under 60 seconds is discarded and the answer says discarded: true',
    scopes: ['tracker-entries.write'],
    body: TimerStop,
    responses: { 200: TimerStopped },
  }),
  currentTimer: defineRoute({
    method: 'GET',
    path: '/tracker-entries/timer/current',
    tag: 'tracker',
    summary: "The caller's running entry, or data: null",
    scopes: ['tracker-entries.read'],
    responses: { 200: z.object({ data: TrackerEntry.nullable() }) },
  }),
  timerStatus: defineRoute({
    method: 'GET',
    path: '/tracker-entries/timer/status',
    tag: 'tracker',
    summary: "Whether the caller's timer runs, its entry and the seconds elapsed, as data (the hosted shape)",
    scopes: ['tracker-entries.read'],
    responses: { 200: z.object({ data: TimerStatus }) },
  }),
};
