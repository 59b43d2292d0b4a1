import { z } from 'zod';
import { defineRoute } from './route';

/**
 * The signed-in user's profile, `/users/me` (docs/decisions/0085-teams-and-users.md, 0086-acting-user.md). A
 * credential that is no user's (an API key) acts for its team's owner; a team without members has no "me" (404).
 */
export const DATE_FORMATS = ['dd/MM/yyyy', 'MM/dd/yyyy', 'yyyy-MM-dd', 'dd.MM.yyyy'] as const;

/**
 * The team the hosted service embeds in `/users/me`: its id, name, logo and subscription plan. There is no
 * subscription here and nothing is held back, so the plan is always "pro" (docs/decisions/0163).
 */
export const USER_TEAM_PLAN = 'pro';
export const UserTeam = z
  .object({
    id: z.string(),
    name: z.string(),
    logoUrl: z.string().nullable(),
    plan: z.string().describe('always "pro": every feature, no subscription'),
  })
  .meta({ id: 'UserTeam' });

export const User = z
  .object({
    id: z.string(),
    fullName: z.string(),
    email: z.string(),
    locale: z.string().describe('BCP 47 language tag, e.g. en-GB'),
    timezone: z.string().describe('IANA time zone'),
    dateFormat: z.enum(DATE_FORMATS),
    timeFormat: z.union([z.literal(12), z.literal(24)]),
    weekStartsOnMonday: z.boolean(),
    avatarUrl: z.string().nullable().describe('always null: no avatar is kept here (the hosted field)'),
    teamId: z.string().describe("the credential's team"),
    team: UserTeam.nullable().describe("the credential's team as the hosted service embeds it"),
    role: z.enum(['owner', 'member']),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof User>;

const Locale = z
  .string()
  .trim()
  .min(2)
  .max(35)
  .transform((v, ctx) => {
    try {
      const [canonical] = Intl.getCanonicalLocales(v);
      if (canonical) return canonical;
    } catch {}
    ctx.addIssue({ code: 'custom', message: 'must be a BCP 47 language tag such as en or de-AT' });
    return z.NEVER;
  });

const TimeZone = z
  .string()
  .trim()
  .max(64)
  .transform((v, ctx) => {
    try {
      return new Intl.DateTimeFormat('en', { timeZone: v }).resolvedOptions().timeZone;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be an IANA time zone such as Europe/Berlin' });
      return z.NEVER;
    }
  });

export const UserPatch = z.strictObject({
  fullName: z.string().trim().min(1, 'must not be empty').max(200).optional(),
  locale: Locale.optional(),
  timezone: TimeZone.optional(),
  dateFormat: z.enum(DATE_FORMATS).optional(),
  timeFormat: z.union([z.literal(12), z.literal(24)]).optional(),
  weekStartsOnMonday: z.boolean().optional(),
});
export type UserPatch = z.infer<typeof UserPatch>;

export const userRoutes = {
  me: defineRoute({
    method: 'GET',
    path: '/users/me',
    tag: 'users',
    summary: 'The user the credential acts for (an API key acts for the team owner)',
    scopes: ['users.read'],
    responses: { 200: User },
  }),
  updateMe: defineRoute({
    method: 'PATCH',
    path: '/users/me',
    tag: 'users',
    summary: 'Change the supplied profile and preference fields',
    scopes: ['users.write'],
    idempotent: true,
    body: UserPatch,
    responses: { 200: User },
  }),
};
