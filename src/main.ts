// Start-up: read the configuration, open the store, serve, and shut down cleanly on SIGTERM/SIGINT.
import type { FastifyBaseLogger } from 'fastify';
import { buildApp, loggerOptions } from './app.js';
import { loadConfig } from './config/index.js';
import { IDEMPOTENCY_TTL_MS } from './http/idempotency.js';
import { createJwtVerifier } from './http/oidc.js';
import { metricsServer } from './http/metrics.js';
import { connectSharedCounters, untilConnected } from './http/redis-counters.js';
import { loadServerSecret } from './server-secret.js';
import { listening, openingDatabase, reportStartupFailure, StartupError } from './startup.js';
import { openStore } from './store/open.js';
import { keepNewFilesPrivate } from './store/private-files.js';

const SHUTDOWN_GRACE_MS = 10_000;
const PURGE_EVERY_MS = 15 * 60 * 1000;

async function main(): Promise<void> {
  // The database, its journal, backups and snapshots hold private skills' text: the owner's alone.
  keepNewFilesPrivate();
  const config = loadConfig();
  let log: FastifyBaseLogger | undefined;
  // The store opens (and may wait for another instance's migrations) before the app and its logger exist;
  // until then its warnings are written as the same JSON lines, straight to stderr.
  const warnBeforeApp = !['fatal', 'error', 'silent'].includes(config.logLevel);
  const storeLog = {
    warn: (details: Record<string, unknown>, message: string) => {
      if (log) log.warn(details, message);
      else if (warnBeforeApp)
        process.stderr.write(`${JSON.stringify({ level: 40, time: Date.now(), ...details, msg: message })}\n`);
    },
  };
  const store = await openingDatabase(config.databaseUrl, () =>
    openStore(config.databaseUrl, {
      poolMax: config.databasePoolMax,
      sqliteReadWorkers: config.sqliteReadWorkers,
      log: storeLog,
    }),
  );
  // Fail open: without Redis the registry keeps serving, unlimited, and says so in the log.
  const sharedCounters = config.redisUrl
    ? connectSharedCounters(config.redisUrl, config.redisKeyPrefix, (error) =>
        log?.warn({ err: error }, 'Redis unreachable: rate limits are not enforced until it is back'),
      )
    : undefined;
  const jwt = config.oidc ? createJwtVerifier(config.oidc, store) : undefined;
  let sealing: ReturnType<typeof loadServerSecret>;
  try {
    sealing = loadServerSecret(config);
  } catch (error) {
    await store.close();
    throw new StartupError(
      `cannot read or create the instance secret beside the database (set REG_SECRET, or fix the folder's permissions): ${(error as Error).message}`,
    );
  }
  const app = await buildApp({
    config,
    store,
    jwt,
    sharedCounters,
    secret: sealing.secret,
    logger: loggerOptions(config.logLevel),
  });
  log = app.log;
  sharedCounters?.redis.on('error', () => app.metrics?.redisErrors.inc());
  for (const warning of config.warnings) app.log.warn(warning);
  if (sealing.source === 'process' && store.backend === 'postgres') {
    app.log.warn(
      'REG_SECRET is not set: answers kept for Idempotency-Key replays are sealed with a secret of this process, so a replay on another instance (or after a restart) answers 409; set the same REG_SECRET on every instance',
    );
  }
  jwt?.useLogger(app.log.child({ component: 'oidc' }));
  if (sharedCounters && !(await untilConnected(sharedCounters.redis, 3_000))) {
    app.log.warn('Redis did not answer at start-up: serving without rate limits until it does');
  }

  app.log.info(
    {
      store: store.backend,
      auth: jwt ? ['api_key', 'oidc'] : ['api_key'],
      oidc: config.oidc ?? undefined,
      rateLimits: config.redisUrl ? 'redis' : 'in-process',
    },
    'knowledge registry starting',
  );
  // REG_METRICS=port:N: the metrics on a port of their own, without keys, for a network only the scraper reaches.
  const scrape = config.metrics.mode === 'port' && app.metrics ? metricsServer(app.metrics) : null;
  try {
    if (scrape && config.metrics.mode === 'port') {
      const { port } = config.metrics;
      await listening(
        config.host,
        port,
        () => new Promise<void>((resolve, reject) => scrape.once('error', reject).listen(port, config.host, resolve)),
        'REG_HOST, REG_METRICS',
      );
      app.log.info({ port }, 'metrics served on their own port');
    }
    await listening(config.host, config.port, () => app.listen({ port: config.port, host: config.host }));
  } catch (error) {
    scrape?.close();
    await app.close().then(
      () => store.close(),
      () => undefined,
    );
    sharedCounters?.redis.disconnect();
    throw error;
  }

  // Saved Idempotency-Key responses are only ever read for 24 hours; delete older ones now and then.
  const purge = setInterval(() => {
    const before = new Date(Date.now() - IDEMPOTENCY_TTL_MS).toISOString();
    store
      .purgeIdempotentResponses(before)
      .catch((error: unknown) => app.log.warn({ err: error }, 'purging idempotency keys failed'));
  }, PURGE_EVERY_MS);
  purge.unref();

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => {
      app.log.error('requests still in flight after the grace period; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    jwt?.close();
    scrape?.close();
    clearInterval(purge);
    app
      .close()
      .then(() => store.close())
      .then(() => sharedCounters?.redis.quit())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.exit(reportStartupFailure(error));
});
