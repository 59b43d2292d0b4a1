import Fastify, { type FastifyInstance } from 'fastify';
import { dataDirOf } from '../infra/blob-store';
import { type BackgroundOptions, backgroundOf, startBackgroundWork } from '../runtime/background';
import type { Db } from '../store/db';
import { withDefaultOrigin } from '../store/write';
import { resolveApiKey } from './auth/credentials';
import { authPlugin } from './auth/plugin';
import { installBodyParsing } from './body';
import { answerClientError, installErrorHandling } from './errors';
import { GroupCommit } from './group-commit';
import { oauthMetadataPlugin, oauthPlugin, resolveOAuthAccessToken } from './oauth/plugin';
import { registerOpenApi } from './openapi';
import { installOwnHostCheck } from './own-host';
import { type IdempotencyOptions, idempotencyPlugin } from './plugins/idempotency';
import { type RateLimitOptions, rateLimitPlugin } from './plugins/rate-limit';
import { responseCachePlugin } from './plugins/response-cache';
import { isReplicaPush } from './replica';
import { genRequestId } from './request-id';
import { appBackupRoutesPlugin, installRestoreGate } from './routes/app-backups';
import { appEInvoiceDeliveryPlugin } from './routes/app-einvoice-delivery';
import { appEventsPlugin } from './routes/app-events';
import { appInboxRoutesPlugin } from './routes/app-inbox';
import { appMetricRoutesPlugin } from './routes/app-metrics';
import { appRateRoutesPlugin } from './routes/app-rates';
import { appSessionRoutesPlugin } from './routes/app-session';
import { appSmtpRoutesPlugin } from './routes/app-smtp';
import { appSyncRoutesPlugin } from './routes/app-sync';
import { appTransactionRoutesPlugin } from './routes/app-transactions';
import { appWorkflowRoutesPlugin } from './routes/app-workflows';
import { attachmentRecordRoutesPlugin } from './routes/attachment-records';
import { customerRoutesPlugin } from './routes/customers';
import { documentRoutesPlugin } from './routes/documents';
import { eInvoiceRoutes } from './routes/e-invoices';
import { fileLinkRoutesPlugin } from './routes/file-links';
import { healthRoutesPlugin } from './routes/health';
import { importRoutesPlugin } from './routes/import';
import { inboxRoutesPlugin } from './routes/inbox';
import { inboxWebhookPlugin } from './routes/inbox-webhook';
import { invoicePaymentRoutesPlugin } from './routes/invoice-payments';
import { invoiceRoutesPlugin } from './routes/invoices';
import { ledgerRoutesPlugin } from './routes/ledger';
import { metricRoutesPlugin } from './routes/metrics';
import { reconciliationRoutesPlugin } from './routes/reconciliation';
import { reportRoutesPlugin } from './routes/reports';
import { ruleRoutesPlugin } from './routes/rules';
import { searchRoutesPlugin } from './routes/search';
import { syncRoutesPlugin } from './routes/sync';
import { tagRoutesPlugin } from './routes/tags';
import { teamRoutesPlugin } from './routes/teams';
import { trackerRoutesPlugin } from './routes/tracker';
import { transactionAttachmentRoutesPlugin } from './routes/transaction-attachments';
import { transactionRoutesPlugin } from './routes/transactions';
import { userRoutesPlugin } from './routes/users';
import { workflowHooksPlugin } from './routes/workflow-hooks';
import { workflowRoutesPlugin } from './routes/workflows';
import { contractSerializerCompiler } from './serializer';
import { sessionAuthenticator } from './session/authenticator';
import { contractValidatorCompiler } from './validation';
import { webUiPlugin } from './web-ui';

export interface AppOptions {
  db: Db;
  /** The data dir (invoice PDFs are stored there); default the folder of the database file. */
  dataDir?: string;
  /** Max requests per minute per credential, and per IP on public routes (the OAuth endpoints have their own budget: rateLimit.oauth). */
  rateLimitPerMinute?: number;
  /** Finer rate-limit settings (windows, the OAuth and per-IP budgets, a clock for tests); see plugins/rate-limit.ts. */
  rateLimit?: RateLimitOptions;
  /**
   * Byte budget of the GET response cache (plugins/response-cache.ts); 0 turns it off. Default 32 MiB.
   * `responseCacheClock` is for tests of time-bound entries.
   */
  responseCacheBytes?: number;
  responseCacheClock?: () => number;
  /** Idempotency-Key guard settings (retention, lease, a clock for tests); see plugins/idempotency.ts. */
  idempotency?: IdempotencyOptions;
  /** Folder of the built web UI to serve at `/`; omitted in API-only tests. */
  webRoot?: string;
  /**
   * The background work this app runs while it is up (runtime/background.ts), started when it is ready and stopped
   * when it closes. Documents (extraction, inbox matching) run by default (`{runner: false}`: created, not ticking);
   * the workflow runner and the invoices' jobs only when given (`finops serve` and the desktop host give both).
   */
  documents?: BackgroundOptions['documents'];
  workflows?: BackgroundOptions['workflows'];
  invoiceJobs?: BackgroundOptions['invoices'];
  /** Sync rounds with each team's remote (off unless given; `finops serve` and the desktop host give it). */
  sync?: BackgroundOptions['sync'];
  /** Each team's watched folder and IMAP mailbox (off unless given; `finops serve` and the desktop host give it). */
  inboxIntake?: BackgroundOptions['inboxIntake'];
  /** Scheduled backups of the data dir (off unless given; `finops serve` and the desktop host give it). */
  backups?: BackgroundOptions['backups'];
  /**
   * Serve only the spec's and the hosted service's operations (`finops serve --spec-only`): every extension answers
   * 404, so a client — or the sync engine's generic path — meets exactly what the hosted service offers.
   */
  specOnly?: boolean;
  /** Answer only requests whose Host is this server's own loopback address (the desktop host; own-host.ts). */
  ownHostOnly?: boolean;
  /** pino level; 'silent' in tests. Per-request logging is off: it costs ~35 % of throughput (perf-facts.md). */
  logLevel?: 'silent' | 'error' | 'warn' | 'info' | 'debug';
  /**
   * Tests: also check every body the production serializer wrote against its contract schema with zod, answering
   * 500 on a mismatch (serializer.ts). The serializer itself is the same either way.
   */
  validateResponses?: boolean;
}

/** The v1 server, ready to listen or to answer `inject()`. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = await createApp(options);
  await app.ready();
  return app;
}

/**
 * The v1 server as one fastify app, not yet sealed by `ready()` (tests add routes of their own to it). Its shape
 * reads from the registration list below: cross-cutting concerns first (request id, errors, auth, rate limits,
 * idempotency, OpenAPI), then one plugin per resource under /v1.
 */
export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: options.logLevel ?? 'warn' },
    // request.log is the app's logger itself, not a child per request (a child per request cost ~10 % of a point
    // read); error logs carry the request id explicitly.
    childLoggerFactory: (logger) => logger,
    genReqId: genRequestId,
    requestIdHeader: false,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // close() ends idle keep-alive connections too (Node's fetch keeps a spare one open that would hold shutdown up).
    forceCloseConnections: true,
    // Requests Node refuses itself (headers too large…) answer with the Error payload too.
    clientErrorHandler: answerClientError,
  });
  app.decorate('specOnly', options.specOnly ?? false);
  const groupCommit = new GroupCommit(options.db);
  app.decorate('groupCommit', groupCommit);
  app.addHook('onClose', async () => groupCommit.drain());
  app.setValidatorCompiler(contractValidatorCompiler);
  app.setSerializerCompiler(contractSerializerCompiler({ validate: options.validateResponses ?? false }));

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    // A sync replica's push is written as `sync` here: the triggers it would set off ran where it was made.
    if (isReplicaPush(request)) withDefaultOrigin('sync', done);
    else done();
  });
  installErrorHandling(app);
  // While a backup is restored into this database, every other request waits outside (503, Retry-After).
  installRestoreGate(app, options.db);
  if (options.ownHostOnly) installOwnHostCheck(app);
  await installBodyParsing(app);
  installBackgroundWork(app, options);
  // The web UI's session cookie is a credential too (server/session/, docs/decisions/0110).
  const sessions = sessionAuthenticator(options.db);
  await app.register(authPlugin, { db: options.db, resolvers: [resolveApiKey, resolveOAuthAccessToken], sessions });
  // [rate-limit plugin registers here]
  await app.register(rateLimitPlugin, { perMinute: options.rateLimitPerMinute, ...options.rateLimit });
  // [response cache registers here: its lookup runs after auth and rate limits]
  await app.register(responseCachePlugin, {
    db: options.db,
    maxBytes: options.responseCacheBytes,
    now: options.responseCacheClock,
  });
  // [idempotency plugin registers here]
  await app.register(idempotencyPlugin, { db: options.db, ...options.idempotency });
  await registerOpenApi(app);
  // [OAuth: /.well-known/oauth-authorization-server registers here]
  await app.register(oauthMetadataPlugin);
  // [web UI static files (options.webRoot) register here]
  if (options.webRoot) await app.register(webUiPlugin, { root: options.webRoot });

  await app.register(
    async (v1) => {
      v1.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      await v1.register(healthRoutesPlugin, { db: options.db });
      // [OAuth routes register here]
      await v1.register(oauthPlugin, { db: options.db });
      // [tags routes register here]
      await v1.register(tagRoutesPlugin, { db: options.db });
      // [customers routes register here]
      await v1.register(customerRoutesPlugin, { db: options.db });
      // [transactions routes register here]
      await v1.register(transactionRoutesPlugin, { db: options.db });
      // [ledger: bank accounts, balances, cash flow, institutions, exchange rates, categories, notifications]
      await v1.register(ledgerRoutesPlugin, { db: options.db, sync: options.sync });
      // [rules routes register here]
      await v1.register(ruleRoutesPlugin, { db: options.db });
      // [import and reconciliation routes register here]
      await v1.register(importRoutesPlugin, { db: options.db });
      await v1.register(reconciliationRoutesPlugin, { db: options.db });
      // [invoices routes register here]
      await v1.register(invoiceRoutesPlugin, { db: options.db, dataDir: options.dataDir });
      await v1.register(eInvoiceRoutes, { db: options.db, dataDir: options.dataDir ?? dataDirOf(options.db) });
      await v1.register(invoicePaymentRoutesPlugin, { db: options.db, sync: options.sync });
      // [tracker routes register here]
      await v1.register(trackerRoutesPlugin, { db: options.db });
      // [workflows routes register here]
      await v1.register(workflowRoutesPlugin, { db: options.db });
      // [teams and users routes register here]
      await v1.register(teamRoutesPlugin, { db: options.db });
      await v1.register(userRoutesPlugin, { db: options.db });
      // [documents and inbox routes register here]
      await v1.register(documentRoutesPlugin, { db: options.db });
      await v1.register(inboxRoutesPlugin, { db: options.db });
      await v1.register(transactionAttachmentRoutesPlugin, { db: options.db });
      await v1.register(fileLinkRoutesPlugin, { db: options.db });
      // [search routes register here]
      await v1.register(searchRoutesPlugin, { db: options.db });
      // [metrics and reports routes register here]
      await v1.register(metricRoutesPlugin, { db: options.db });
      await v1.register(reportRoutesPlugin, { db: options.db });
      // [sync: the change feed other replicas pull from]
      await v1.register(syncRoutesPlugin, { db: options.db });
      await v1.register(attachmentRecordRoutesPlugin, { db: options.db });
    },
    { prefix: '/v1' },
  );
  // [internal routes the UI needs and the v1 contract lacks (/app) register here]
  await app.register(appEventsPlugin, { db: options.db, prefix: '/app' });
  await app.register(appSessionRoutesPlugin, { db: options.db, sessions, prefix: '/app' });
  await app.register(appTransactionRoutesPlugin, { db: options.db, prefix: '/app' });
  await app.register(appMetricRoutesPlugin, { db: options.db, prefix: '/app' });
  await app.register(appWorkflowRoutesPlugin, { db: options.db, prefix: '/app' });
  await app.register(appSyncRoutesPlugin, {
    db: options.db,
    sync: options.sync,
    loopbackSignIn: options.ownHostOnly,
    prefix: '/app',
  });
  await app.register(appInboxRoutesPlugin, { db: options.db, prefix: '/app' });
  await app.register(appSmtpRoutesPlugin, { db: options.db, prefix: '/app' });
  await app.register(appEInvoiceDeliveryPlugin, { db: options.db, prefix: '/app' });
  await app.register(appRateRoutesPlugin, { db: options.db, prefix: '/app' });
  await app.register(appBackupRoutesPlugin, {
    db: options.db,
    dataDir: options.dataDir ?? dataDirOf(options.db),
    prefix: '/app',
  });
  // Signed inbound webhooks of workflows: outside /v1 and its bearer scheme.
  await app.register(workflowHooksPlugin, { db: options.db, prefix: '/hooks' });
  // Provider callbacks (the spec names both prefixes): inbound e-mail for the inbox, signed with the team's secret.
  for (const prefix of ['/webhook', '/webhooks']) await app.register(inboxWebhookPlugin, { db: options.db, prefix });
  return app;
}

/** Starts the app's background work when it is ready and stops it when it closes (before the database closes). */
function installBackgroundWork(app: FastifyInstance, options: AppOptions): void {
  let stop: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    const work = startBackgroundWork(options.db, {
      dataDir: options.dataDir ?? dataDirOf(options.db),
      workflows: options.workflows ?? false,
      invoices: options.invoiceJobs ?? false,
      documents: options.documents,
      sync: options.sync ?? false,
      inboxIntake: options.inboxIntake ?? false,
      backups: options.backups ?? false,
      onError: (err, area, id) => app.log.error({ err, area, id }, 'background work failed'),
    });
    stop = () => work.stop();
  });
  app.addHook('onClose', async () => {
    await stop?.();
    // A restore paused and started the work again: that newer one stops too.
    await backgroundOf(options.db)?.stop();
  });
}
