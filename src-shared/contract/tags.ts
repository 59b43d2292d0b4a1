import { z } from 'zod';
import { ClientId } from './common';
import { defineRoute } from './route';

/**
 * Tags: `{id, name}` labels of a team, shared by customers, transactions and tracker projects. Names are unique
 * per team, compared case-insensitively (a duplicate is 409).
 */
export const TagRef = z.object({ id: z.string(), name: z.string() }).meta({ id: 'TagRef' });
export type TagRef = z.infer<typeof TagRef>;

export const Tag = z
  .object({
    id: z.string().describe('identifier assigned by the service'),
    name: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Tag' });
export type Tag = z.infer<typeof Tag>;

export const TagName = z.string().trim().min(1, 'must not be empty').max(100, 'at most 100 characters');

export const TagCreate = z.strictObject({ id: ClientId.optional(), name: TagName });
export const TagPatch = z.strictObject({ name: TagName.optional() });

/** Any string: an id that is not the team's (malformed or not) is 404, never 422. */
export const TagIdParams = z.object({ id: z.string().min(1).max(200) });

export const TagList = z.object({ data: z.array(Tag) });

export const tagRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/tags',
    tag: 'tags',
    summary: "List the team's tags, by name",
    scopes: ['tags.read'],
    responses: { 200: TagList },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/tags',
    tag: 'tags',
    summary: 'Create a tag (409 when the team already has a tag of that name)',
    scopes: ['tags.write'],
    idempotent: true,
    body: TagCreate,
    responses: { 201: Tag },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/tags/:id',
    tag: 'tags',
    summary: 'Retrieve a tag',
    scopes: ['tags.read'],
    params: TagIdParams,
    responses: { 200: Tag },
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/tags/:id',
    tag: 'tags',
    summary: 'Rename a tag',
    scopes: ['tags.write'],
    idempotent: true,
    params: TagIdParams,
    body: TagPatch,
    responses: { 200: Tag },
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/tags/:id',
    tag: 'tags',
    summary: 'Delete a tag (it is removed from every customer, transaction and project); returns the deleted tag',
    scopes: ['tags.write'],
    params: TagIdParams,
    responses: { 200: Tag },
  }),
};
