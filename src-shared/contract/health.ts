import { z } from 'zod';
import { defineRoute } from './route';

export const Health = z.object({
  status: z.literal('ok'),
  version: z.string().describe('version of the server'),
  schemaVersion: z.number().int().describe('version of the database schema'),
  time: z.string().describe('server time, ISO 8601'),
});

export const healthRoutes = {
  get: defineRoute({
    method: 'GET',
    path: '/health',
    tag: 'health',
    summary: 'Liveness and version of the server (no credential needed)',
    scopes: [],
    public: true,
    responses: { 200: Health },
  }),
};
