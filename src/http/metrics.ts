// Prometheus metrics (REG_METRICS): requests by route and status with their latency, rate-limit
// refusals, store and Redis errors, the search index's figures, the PostgreSQL pool, and the process's
// own (event-loop lag, memory, CPU). One registry per app, so tests and instances never share counters.
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RegistrySearch } from '../search/index.js';
import { StoreUnavailableError, type Store } from '../store/store.js';

/** The search figures metrics show, read from what the search service tells /readyz (its only contract here). */
interface SearchFigures {
  ready: boolean;
  pending: number;
  terms: Record<'skill' | 'unit', number>;
  builtAt: number | null;
}

/** Reads the search service's status; the one place that knows its shape. */
export function searchFigures(search: RegistrySearch | null): () => Promise<SearchFigures | null> {
  if (search === null) return async () => null;
  let builtAt: number | null = null;
  search.ready.then(
    () => (builtAt = Date.now() / 1000),
    () => undefined,
  );
  return async () => {
    const status = await search.status();
    return {
      ready: status.ready,
      pending: status.pending,
      terms: { skill: status.vocabulary.skill.terms, unit: status.vocabulary.unit.terms },
      builtAt,
    };
  };
}

export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'registry_http_requests_total',
    help: 'HTTP requests answered, by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'registry_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly refusals = new Counter({
    name: 'registry_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit (429), by route',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });
  private readonly storeErrors = new Counter({
    name: 'registry_store_errors_total',
    help: 'Requests that failed because the database was unavailable',
    registers: [this.registry],
  });
  readonly redisErrors = new Counter({
    name: 'registry_redis_errors_total',
    help: 'Errors from the Redis connection (rate limits fail open meanwhile)',
    registers: [this.registry],
  });

  constructor(store: Store, search: () => Promise<SearchFigures | null>) {
    collectDefaultMetrics({ register: this.registry });
    // A scrape collects every gauge at once: the search figures are read once for all of them (the
    // reading in flight is shared), and afresh for the next scrape.
    let reading: Promise<SearchFigures | null> | null = null;
    const figures = () => (reading ??= search().finally(() => (reading = null)));
    const searchGauge = (name: string, help: string, read: (f: SearchFigures) => number | null) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        async collect() {
          const latest = await figures();
          const value = latest ? read(latest) : null;
          if (value !== null) this.set(value);
        },
      });
    searchGauge(
      'registry_search_index_ready',
      'Whether searches are answered from the built index (1) or wait for it (0)',
      (f) => (f.ready ? 1 : 0),
    );
    searchGauge(
      'registry_search_pending_items',
      'Items waiting to be indexed or embedded (the embedding queue included)',
      (f) => f.pending,
    );
    searchGauge(
      'registry_search_index_built_timestamp_seconds',
      'When the search index was built from the database (Unix time)',
      (f) => f.builtAt,
    );
    new Gauge({
      name: 'registry_search_index_terms',
      help: "Distinct words in each kind's search index",
      labelNames: ['kind'] as const,
      registers: [this.registry],
      async collect() {
        const latest = await figures();
        if (latest) for (const kind of ['skill', 'unit'] as const) this.set({ kind }, latest.terms[kind]);
      },
    });
    new Gauge({
      name: 'registry_database_pool_connections',
      help: 'PostgreSQL pool connections: total, idle, and requests waiting for one',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const pool = store.poolUse?.();
        if (pool) for (const [state, count] of Object.entries(pool)) this.set({ state }, count);
      },
    });
  }

  /** Counts every answer and its latency, 429s and database failures. */
  install(app: FastifyInstance): void {
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched';
      const labels = { method: request.method, route, status: String(reply.statusCode) };
      this.requests.inc(labels);
      this.latency.observe(labels, reply.elapsedTime / 1000);
      if (reply.statusCode === 429) this.refusals.inc({ route });
    });
    app.addHook('onError', async (_request, _reply, error) => {
      if (error instanceof StoreUnavailableError) this.storeErrors.inc();
    });
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's metrics; null when REG_METRICS is off. */
    metrics: Metrics | null;
  }
}

const answer = async (metrics: Metrics) => ({
  type: metrics.registry.contentType,
  body: await metrics.registry.metrics(),
});

/**
 * Metrics for the app per REG_METRICS: none (off); else every answer is counted, and the metrics are
 * served by `GET /metrics` for admin keys (admin, metricsRoute) or on a port of their own (port, main.ts).
 */
export function installMetrics(
  app: FastifyInstance,
  mode: 'off' | 'admin' | 'port',
  store: Store,
  search: RegistrySearch | null,
): void {
  const metrics = mode === 'off' ? null : new Metrics(store, searchFigures(search));
  app.decorate('metrics', metrics);
  metrics?.install(app);
}

/** GET /metrics, for admin keys (REG_METRICS=admin); left out of the OpenAPI document like the probes' internals. */
export async function metricsRoute(app: FastifyInstance): Promise<void> {
  const metrics = app.metrics;
  if (metrics === null) return;
  app.get('/metrics', { config: { access: 'admin' }, schema: { hide: true } }, async (_request, reply) => {
    const { type, body } = await answer(metrics);
    return reply.type(type).header('cache-control', 'no-store').send(body);
  });
}

/** The metrics on a port of their own (REG_METRICS=port:N): GET /metrics, nothing else, no key. */
export function metricsServer(metrics: Metrics): Server {
  return createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('only GET /metrics is served here\n');
      return;
    }
    answer(metrics).then(
      ({ type, body }) => response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics could not be collected\n'),
    );
  });
}
