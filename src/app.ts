// buildApp: the whole HTTP service over a given store, with nothing global, so tests build one per case.
import { isUtf8 } from 'node:buffer';
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config/index.js';
import { randomIds, type IdSource } from './domain/ids.js';
import { redactCredentials } from './domain/keys.js';
import { badRequest, forbidden } from './domain/errors.js';
import { findUnstorableText } from './domain/text.js';
import { apiKeyVerifier, authPlugin, type BearerVerifier } from './http/auth.js';
import { installConventions } from './http/conventions.js';
import { installMetrics, metricsRoute } from './http/metrics.js';
import { clientErrorHandler, frameworkErrorHandler, installErrorEnvelope } from './http/error-envelope.js';
import {
  DEFAULT_LIMITS,
  installLimits,
  PROBES,
  SERVER_TIMEOUTS,
  type Limits,
  type ServerTimeouts,
} from './http/limits.js';
import { idempotencyPlugin } from './http/idempotency.js';
import { openapiOptions } from './http/openapi.js';
import { installRateLimits, type RateLimitOptions } from './http/rate-limit.js';
import { authRoutes } from './http/routes/auth.js';
import { docsRoutes } from './http/routes/docs.js';
import { exportRoutes } from './http/routes/export.js';
import { knowledgeRoutes } from './http/routes/knowledge.js';
import { advisoryRoutes } from './http/routes/advisories.js';
import { moderationRoutes } from './http/routes/moderation.js';
import { operationRoutes } from './http/routes/operations.js';
import { reputationRoutes } from './http/routes/reputation.js';
import { installRouteCatalogue } from './http/route-catalogue.js';
import { discoveryRoutes } from './http/routes/discovery.js';
import { skillVersionRoutes } from './http/routes/skill-versions.js';
import { skillRoutes } from './http/routes/skills.js';
import { mcpRoutes } from './mcp/http.js';
import { openSearchIndex } from './service/search-index.js';
import type { Context } from './service/context.js';
import type { Store } from './store/store.js';
import { webFront } from './web/front.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface AppOptions {
  config: Config;
  store: Store;
  clock?: () => Date;
  ids?: IdSource;
  /** Verifies bearer tokens that are not API keys (OIDC/JWT); absent when OIDC is off. */
  jwt?: BearerVerifier;
  /** Shared rate-limit counters in Redis; in-process counters when absent. */
  sharedCounters?: RateLimitOptions['shared'];
  logger?: FastifyServerOptions['logger'];
  limits?: Partial<Limits>;
  /** Seals answers kept for idempotent replays (see server-secret.ts); a random one per app when absent. */
  secret?: Buffer;
  /** The HTTP server's guards against slow clients; tests shorten them. */
  timeouts?: Partial<ServerTimeouts>;
  /** Wait for the search index to be built before answering (tests); else it builds in the background. */
  awaitSearchIndex?: boolean;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Request ids: the caller's X-Request-Id when it is short and plain, else a new UUID. */
function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

const hops = (count: number) => (_address: string, hop: number) => hop < count;

/**
 * A page on another site can make a browser send requests here under its own name (DNS rebinding); the
 * Host header then names that site. Only the names the registry answers to are served (REG_ALLOWED_HOSTS).
 */
function assertAllowedHost(allowed: string[] | null, host: string, url: string): void {
  // Probes are answered whatever the Host; they reveal nothing.
  if (allowed === null || PROBES.has(url.split('?')[0]!)) return;
  const name = host
    .replace(/^\[([^\]]*)\](:\d+)?$/, '$1')
    .replace(/^([^:]*)(:\d+)?$/, '$1')
    .toLowerCase();
  if (!allowed.includes(name))
    throw forbidden(
      `this registry does not answer to the host name ${JSON.stringify(name.slice(0, 100))}; see REG_ALLOWED_HOSTS`,
    );
}

/**
 * JSON log lines that never carry a credential: a request is logged by its method, its URL (any key or
 * token in it blanked: a client may put one in a query string) and its addresses, never its headers;
 * every message and error is scrubbed the same way before it is written.
 */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'],
      censor: '[redacted]',
    },
    serializers: {
      req: (request: {
        method: string;
        url: string;
        host?: string;
        ip?: string;
        socket?: { remotePort?: number };
      }) => ({
        method: request.method,
        url: redactCredentials(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
      err: (error: Error & { code?: unknown }) => ({
        type: error.name,
        message: redactCredentials(String(error.message)),
        stack: redactCredentials(String(error.stack)),
        ...(error.code !== undefined ? { code: error.code } : {}),
      }),
    },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((arg) => (typeof arg === 'string' ? redactCredentials(arg) : arg)) as typeof args);
      },
    },
  };
}

/**
 * JSON bodies must be valid UTF-8: decoding would otherwise replace bad bytes with U+FFFD and store
 * something the client never sent. Parsing itself is Fastify's (prototype poisoning refused).
 */
function installJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) {
      done(badRequest('body is not valid UTF-8: send JSON encoded as UTF-8'), undefined);
      return;
    }
    parseJson(request, bytes.toString('utf8'), done);
  });
}

/** Bodies are validated strictly (no type coercion); query strings and path parameters are coerced from text. */
function installValidators(app: FastifyInstance): void {
  const common = { allErrors: false, removeAdditional: false, useDefaults: true, strict: false } as const;
  const strictAjv = addFormats.default(new Ajv({ ...common, coerceTypes: false }));
  const coercingAjv = addFormats.default(new Ajv({ ...common, coerceTypes: 'array' }));
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? strictAjv : coercingAjv).compile(schema as object),
  );
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, store } = options;
  const timeouts = { ...SERVER_TIMEOUTS, ...options.timeouts };
  const search = openSearchIndex(store, config);
  const ctx: Context = {
    store,
    config,
    clock: options.clock ?? (() => new Date()),
    ids: options.ids ?? randomIds,
    search,
  };

  const app = Fastify({
    logger: options.logger ?? false,
    genReqId: requestId,
    bodyLimit: BODY_LIMIT_BYTES,
    // A hop count trusts that many proxies in front (hop 0 is the one that connected), no more.
    trustProxy: typeof config.trustProxy === 'number' ? hops(config.trustProxy) : config.trustProxy,
    requestTimeout: timeouts.requestTimeout,
    connectionTimeout: timeouts.connectionTimeout,
    keepAliveTimeout: timeouts.keepAliveTimeout,
    http: {
      maxHeaderSize: timeouts.maxHeaderSize,
      headersTimeout: timeouts.headersTimeout,
      connectionsCheckingInterval: timeouts.connectionsCheckingInterval,
      // Node would answer a missing Host itself, outside the envelope; the hook below answers it.
      requireHostHeader: false,
    },
    // Path segments as long as the header limit allows, so an overlong id meets the same auth checks and
    // the same schema (400 naming the parameter) as any other bad id, not a router error.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: timeouts.maxHeaderSize },
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
    // While closing, new requests are answered by installLimits (the envelope and Retry-After).
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();

  installValidators(app);
  const routes = installRouteCatalogue(app);
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  await installLimits(app, limits);
  // Bodies are JSON only: with the text/plain parser gone, any other type answers 415.
  app.removeContentTypeParser(['text/plain']);
  installJsonParser(app);
  await installConventions(app, { corsOrigins: config.corsOrigins });
  installMetrics(app, config.metrics.mode, store, search);
  app.addHook('onRequest', async (request) => {
    if (request.raw.httpVersion === '1.1' && !request.headers.host)
      throw badRequest('the Host header is required (HTTP/1.1)');
    assertAllowedHost(config.allowedHosts, request.host, request.url);
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // No response is ever to be sniffed into another type (HTML, script) by a browser.
    reply.header('x-content-type-options', 'nosniff');
  });

  await app.register(swagger, openapiOptions);
  await app.register(authPlugin, { apiKeys: apiKeyVerifier(store), jwt: options.jwt });
  await installRateLimits(app, {
    limits: config.rateLimits,
    shared: options.sharedCounters,
    callers: limits.rateLimitCallers,
  });
  // Browsers asking for an unknown page get an HTML 404; the API keeps its JSON envelope.
  const web = webFront();
  installErrorEnvelope(app, routes, web.notFoundFirst(app, app.rateLimit()));

  // Text every backend can store: refused before validation, naming the field.
  app.addHook('preValidation', async (request) => {
    const body = findUnstorableText(request.body);
    if (body !== null) throw badRequest(`${body} must be well-formed Unicode text without NUL characters`);
    const query = findUnstorableText(request.query) ?? findUnstorableText(request.params);
    if (query !== null) throw badRequest(`parameter ${query} must be well-formed Unicode text without NUL characters`);
  });

  await app.register(idempotencyPlugin, { store, clock: ctx.clock, secret: options.secret ?? randomBytes(48) });

  await app.register(operationRoutes, ctx);
  if (config.metrics.mode === 'admin') await app.register(metricsRoute);
  await app.register(authRoutes, ctx);
  await app.register(skillRoutes, ctx);
  await app.register(skillVersionRoutes, ctx);
  await app.register(discoveryRoutes, ctx);
  await app.register(knowledgeRoutes, ctx);
  await app.register(moderationRoutes, ctx);
  await app.register(advisoryRoutes, ctx);
  await app.register(reputationRoutes, ctx);
  await app.register(exportRoutes, ctx);
  await app.register(mcpRoutes, ctx);
  await app.register(docsRoutes);
  await web.register(app, ctx);
  app.addHook('onClose', () => search.close());
  search.useLog(app.log.child({ component: 'search' }));
  search.start();
  if (options.awaitSearchIndex) await search.ready;
  await app.ready();
  return app;
}
