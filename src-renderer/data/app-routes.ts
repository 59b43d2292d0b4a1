/**
 * Contract routes of the internal app API (under `/app`) whose contract files do not say where they are mounted:
 * the typed client builds their URLs from `mount` (src-shared/contract/route.ts), set here.
 */
import { appWorkflowRoutes } from '../../src-shared/contract/app-workflows';
import type { RouteContract } from '../../src-shared/contract/route';

function atApp<T extends Record<string, RouteContract>>(routes: T): { [K in keyof T]: T[K] & { mount: '/app' } } {
  return Object.fromEntries(Object.entries(routes).map(([k, r]) => [k, { ...r, mount: '/app' as const }])) as {
    [K in keyof T]: T[K] & { mount: '/app' };
  };
}

export const workflowApi = atApp(appWorkflowRoutes);
