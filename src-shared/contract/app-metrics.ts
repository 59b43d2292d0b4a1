import { StressTest, StressTestBody } from './metrics';
import { defineRoute } from './route';

/**
 * The stress-test builder's live preview (internal app API under /app): the same computation as
 * `POST /v1/metrics/stress-test`, answered without saving, so every edit of a driver can be shown at once and only
 * the tests a person keeps are saved. Invalid drivers are answered 422 with each field named, like the v1 route.
 */
export const appMetricRoutes = {
  previewStressTest: defineRoute({
    method: 'POST',
    path: '/metrics/stress-test/preview',
    mount: '/app',
    tag: 'metrics',
    summary: 'Run a stress test without saving it (the builder’s live preview)',
    description: 'Internal app API (under /app, not part of the public v1 contract).',
    scopes: ['metrics.read'],
    body: StressTestBody,
    responses: { 200: StressTest.omit({ id: true, createdAt: true }) },
  }),
};
