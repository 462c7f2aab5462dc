import fs from 'node:fs';
import path from 'node:path';
import express, { Router, type Express } from 'express';
import { analyticsRouter } from './analytics/routes.js';
import { exportDownloadRouter } from './analytics/export-links.js';
import { conversationRollups } from './analytics/conversation-rollups.js';
import { apiKeysRouter } from './api-keys/routes.js';
import { assistantExtrasRouter } from './assistants/extras-routes.js';
import { providersRouter } from './assistants/providers-route.js';
import { assistantsRouter } from './assistants/routes.js';
import { assetsRouter } from './assets/routes.js';
import { createAssistantStore } from './assistants/service.js';
import { authRouter } from './auth/routes.js';
import { knowledgeGapHooks } from './chat/conversation-hooks.js';
import { chatRoutes } from './chat/routes.js';
import { createChatService } from './chat/service.js';
import type { AppContext } from './context.js';
import { conversationsRouter } from './conversations/routes.js';
import { combineHooks, createConversationStore } from './conversations/store.js';
import { serveDashboard } from './dashboard/serve.js';
import { requireAuth } from './auth/middleware.js';
import { AppError, errorHandler } from './http/errors.js';
import { jsonBody } from './http/json-body.js';
import { httpMetrics, routeLabel } from './metrics/http.js';
import { metricsEndpoint } from './metrics/route.js';
import { refuseNulInUrl } from './http/nul-url.js';
import { rateLimit } from './http/rate-limit.js';
import { requestId } from './http/request-id.js';
import { pathParams } from './http/validate.js';
import { createHybridRetriever } from './knowledge/embeddings/hybrid.js';
import { knowledgeRouter } from './knowledge/routes.js';
import { openApiDocument } from './openapi/document.js';
import { createRetriever } from './knowledge/retrieval.js';
import { createKnowledgeStore } from './knowledge/store.js';
import { createUrlSources, type UrlSourceTuning } from './knowledge/web/url-sources.js';
import { membersRouter } from './organizations/members-routes.js';
import { organizationsRouter } from './organizations/routes.js';
import { webhooksRouter } from './webhooks/routes.js';
import { createWebhookStore } from './webhooks/store.js';
import { runExclusive, UPKEEP_LOCK_KEY } from './storage/exclusive.js';
import { widgetRouter } from './widget-api/routes.js';

/** The API answers under both prefixes (docs/api-spec.md §1). */
const API_PREFIXES = ['/v1', '/api/v1'];

/** JSON bodies above this are refused with 413 (docs/api-spec.md §1). */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

export interface ParleyApp {
  app: Express;
  /** Periodic upkeep (idle conversations, limiter memory); main.ts runs it on a timer. */
  maintain(): Promise<void>;
  /** Background fetches/crawls of web documents: `listen` starts them and stops them on close. */
  webJobs: { start(): void; stop(): Promise<void> };
}

/** Builds the whole HTTP application from its dependencies; no env, no globals. */
export function createApp(ctx: AppContext, opts: { urlSources?: UrlSourceTuning } = {}): ParleyApp {
  const assistants = createAssistantStore(ctx.storage, { now: () => ctx.clock.now() });
  const retriever = createRetriever(ctx.storage, { memoryIndexMaxChunks: ctx.config.retrievalMemoryMaxChunks });
  const knowledge = createKnowledgeStore(ctx.storage, {
    onIndexChange: () => ctx.embeddings?.wake(),
    onChange: (change, tx) => ctx.webhooks.knowledgeBaseUpdated(tx, change),
  });
  retriever.warmUp();
  const urlSources = createUrlSources(ctx, knowledge, opts.urlSources);
  const conversations = createConversationStore(ctx.storage, combineHooks(conversationRollups, knowledgeGapHooks));
  // BM25, fused with vectors when an embedding model is configured (knowledge/embeddings).
  const search = createHybridRetriever({ bm25: retriever, dense: ctx.embeddings?.dense });
  const chat = createChatService({
    storage: ctx.storage,
    clock: ctx.clock,
    retriever: search,
    conversations,
    providers: ctx.providers,
    webhooks: ctx.webhooks,
    logger: ctx.logger,
    metrics: ctx.metrics,
  });

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', ctx.config.trustProxy);
  app.set('query parser', 'simple');
  app.set('json spaces', 0);
  // No ETag per API response: hashing every JSON body costs ~3 % of a chat request, and API
  // clients do not revalidate. widget.js keeps its own (sendFile's etag option).
  app.set('etag', false);

  // Our own parser: refuses invalid UTF-8, nesting deeper than 32 and mislabelled gzip (http/json-body.ts).
  const json = jsonBody({ limitBytes: JSON_BODY_LIMIT_BYTES });
  const authenticate = requireAuth({ resolver: ctx.credentials, clock: ctx.clock, failures: ctx.authFailures, config: ctx.config });
  const limited = rateLimit(ctx.limiter);

  app.use(httpMetrics(app, ctx.metrics)); // first: its clock starts with the request
  app.use(requestId());
  app.use(refuseNulInUrl()); // PostgreSQL text cannot hold U+0000 (http/nul-url.ts)
  // The busiest routes first, on the app itself: a chat request walks no other layer and no
  // router. Only POSTs to their paths match; each is answered here (no second auth or count).
  // One path per route (not a list): the metrics label a request by the path it matched.
  for (const route of chatRoutes({ chat, assistants, logger: ctx.logger })) {
    for (const prefix of API_PREFIXES) app.post(prefix + route.path, authenticate, limited, json, ...route.handlers);
  }
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/metrics', metricsEndpoint(ctx.metrics, ctx.config.metricsToken)); // Prometheus (API.md §12)
  // Readiness (docs/api-spec.md §11): the database answers and the retrieval index is built. A load
  // balancer sends traffic only then; /healthz stays liveness.
  app.get('/readyz', async (_req, res) => {
    let ready = false;
    try {
      await ctx.storage.get('SELECT 1 AS one');
      ready = retriever.ready();
    } catch {
      ready = false;
    }
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'starting' });
  });
  app.get('/js/widget.js', serveWidget(ctx.widgetFile));
  app.get(['/demo', '/demo/'], serveDemo(ctx));
  app.get('/demo/docs/:name', serveDemoDoc(ctx.demoDir));
  app.use('/dashboard', routeLabel('/dashboard/*path'), serveDashboard(ctx.dashboardDir));
  // The API's own contract, public like /healthz (server/src/openapi).
  app.get(['/v1/openapi.json', '/api/v1/openapi.json'], (_req, res) => {
    res.json(openApiDocument());
  });

  // Public routes next: auth and the widget API carry no bearer token.
  const open = Router();
  open.use(['/auth', '/widget', '/invitations'], json);
  open.use(authRouter(ctx, [authenticate, limited]));
  open.use(assetsRouter(ctx));
  open.use(exportDownloadRouter(ctx)); // one-time export links: the token is the credential
  open.use(widgetRouter({ ctx, chat, conversations, findAssistant: (id) => findAssistantAnyOrg(id) }));

  const api = Router();
  api.use(authenticate, limited, json);
  api.use(organizationsRouter(ctx));
  api.use(membersRouter(ctx));
  api.use(apiKeysRouter(ctx));
  api.use(conversationsRouter(ctx, conversations, assistants));
  for (const alias of ['/assistants', '/apps', '/integrations'])
    api.use(alias, assistantsRouter(ctx, assistants), assistantExtrasRouter(ctx, assistants));
  api.use(providersRouter(ctx));
  api.use(knowledgeRouter(ctx, knowledge, assistants, search, urlSources));
  api.use(analyticsRouter(ctx, { chat, assistants, knowledge, retriever: search }));
  api.use(webhooksRouter(ctx, createWebhookStore(ctx.storage)));

  for (const prefix of API_PREFIXES) {
    app.use(prefix, open);
    app.use(prefix, api);
  }
  app.use((_req, _res) => {
    throw new AppError('resource_not_found', 'No such route');
  });
  app.use(errorHandler(ctx.logger));

  function findAssistantAnyOrg(id: string) {
    return assistants.recent(null, id);
  }

  return {
    app,
    webJobs: { start: () => urlSources.start(), stop: () => urlSources.stop() },
    async maintain() {
      const now = ctx.clock.now();
      ctx.limiter.sweep(); // this process's own memory
      // Database upkeep runs on one instance at a time (an advisory lock on PostgreSQL); each
      // idle conversation still ends once, because ending it is a conditional update.
      await runExclusive(ctx.storage, UPKEEP_LOCK_KEY, async () => {
        // The idle ends and their conversation.ended events commit together.
        await conversations.endIdle(now, (tx, c) =>
          ctx.webhooks.conversationEnded(tx, c, 'idle', c.endedAt ?? new Date(now).toISOString()),
        );
        await ctx.webhooks.outbox.prune(now);
      });
    },
  };
}

function serveWidget(file: string): express.RequestHandler {
  return function sendWidget(_req, res) {
    if (!fs.existsSync(file)) throw new AppError('resource_not_found', 'The widget is not built: run npm run build --workspace widget');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
    // Short max-age plus ETag: sites pick up a new widget within minutes, revalidation is cheap.
    // The ETag is set here (size and mtime, like `send` makes it): the app's own ETags are off.
    const stat = fs.statSync(file);
    res.setHeader('ETag', `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`);
    res.sendFile(file, {
      maxAge: 5 * 60_000,
      etag: true,
      lastModified: true,
      headers: { 'Content-Type': 'text/javascript; charset=utf-8' },
    });
  };
}

function serveDemo(ctx: AppContext): express.RequestHandler {
  return async function sendDemo(req, res) {
    if (req.path === '/demo') return res.redirect(301, '/demo/');
    const appId = (await ctx.storage.get<{ value: string }>("SELECT value FROM settings WHERE key = 'demo_assistant_id'"))?.value;
    const file = path.join(ctx.demoDir, 'site', 'index.html');
    if (!appId || !fs.existsSync(file))
      throw new AppError('resource_not_found', 'No demo on this server (start with SEED_DEMO=true on a new database)');
    const html = fs
      .readFileSync(file, 'utf8')
      .replaceAll('__PARLEY_PUBLIC_URL__', ctx.config.publicUrl)
      .replaceAll('__PARLEY_APP_ID__', appId);
    res.type('html').send(html);
  };
}

/** The demo knowledge files, so the demo assistant's source links lead somewhere real. */
function serveDemoDoc(demoDir: string): express.RequestHandler {
  return function sendDemoDoc(req, res) {
    const { name } = pathParams(req, 'name');
    const file = path.join(demoDir, 'knowledge', `${name}.md`);
    if (!/^[\w-]+$/.test(name) || !fs.existsSync(file)) throw new AppError('resource_not_found', 'No such demo document');
    res.type('text/markdown; charset=utf-8').send(fs.readFileSync(file, 'utf8'));
  };
}
