import { z } from 'zod';
import { Color } from './categories';
import { ClientId } from './common';
import { idParams } from './list';
import { defineRoute } from './route';
import { Currency } from './tracker';

/**
 * Tracker categories: the activity types of time entries (design, meetings, support), whose fields the spec does not
 * show (docs/decisions/0146-tracker-categories.md). A category has a colour, a default hourly rate in its currency
 * and whether its time is billable. An entry's rate is its project's rate when the project has one (the project
 * overrides), else its category's rate when that is in the project's currency; an entry is billable when both its
 * project and its category are. Read with `tracker-entries.read` (entries show them), changed with
 * `tracker-projects.write` (billing configuration, like a project's rate).
 */

const Name = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');
const Rate = z
  .number()
  .min(0)
  .max(1_000_000, 'must be at most 1000000')
  .nullable()
  .describe('default hourly rate in major units of currency; null: none (the project must set one)');

export const TrackerCategoryCreate = z.strictObject({
  id: ClientId.optional(),
  name: Name,
  color: Color.optional().describe('#rrggbb; default grey'),
  rate: Rate.optional(),
  currency: Currency.optional().describe('default: the team base currency'),
  billable: z.boolean().optional().describe('default true'),
});
export type TrackerCategoryCreate = z.infer<typeof TrackerCategoryCreate>;

export const TrackerCategoryPatch = z.strictObject({
  name: Name.optional(),
  color: Color.optional(),
  rate: Rate.optional(),
  currency: Currency.optional().describe('a new currency keeps the rate figure'),
  billable: z.boolean().optional(),
});
export type TrackerCategoryPatch = z.infer<typeof TrackerCategoryPatch>;

export const TrackerCategory = z
  .object({
    id: z.string(),
    name: z.string(),
    color: z.string(),
    rate: z.number().nullable(),
    currency: z.string(),
    billable: z.boolean(),
    entryCount: z.number().int().describe('entries of this category'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'TrackerCategory' });
export type TrackerCategory = z.infer<typeof TrackerCategory>;

const IdParams = idParams();

export const trackerCategoryRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/tracker-categories',
    tag: 'tracker',
    summary: 'The team’s tracker categories (activity types), by name',
    scopes: ['tracker-entries.read'],
    responses: { 200: z.object({ data: z.array(TrackerCategory) }) },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/tracker-categories/:id',
    tag: 'tracker',
    summary: 'Retrieve a tracker category',
    scopes: ['tracker-entries.read'],
    params: IdParams,
    responses: { 200: TrackerCategory },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/tracker-categories',
    tag: 'tracker',
    summary: 'Create a tracker category (409 when the name is taken)',
    scopes: ['tracker-projects.write'],
    idempotent: true,
    body: TrackerCategoryCreate,
    responses: { 200: TrackerCategory },
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/tracker-categories/:id',
    tag: 'tracker',
    summary: 'Change the supplied fields of a tracker category; amounts of its entries follow a new rate',
    scopes: ['tracker-projects.write'],
    idempotent: true,
    params: IdParams,
    body: TrackerCategoryPatch,
    responses: { 200: TrackerCategory },
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/tracker-categories/:id',
    tag: 'tracker',
    summary: 'Delete a tracker category (409 while entries use it); returns the deleted category',
    scopes: ['tracker-projects.write'],
    params: IdParams,
    responses: { 200: TrackerCategory },
  }),
};
