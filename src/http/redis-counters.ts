// Rate-limit counters shared through Redis. The counting is @fastify/rate-limit's own Redis store (one
// atomic script per request); this module connects, and reports each failure before the plugin fails
// open (serves the request without a limit), so an outage is logged from its first request.
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
// @ts-expect-error: the plugin's own Redis store ships without type declarations of its own.
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import { Redis } from 'ioredis';

export interface SharedCounters {
  redis: Redis;
  /** Prefix of every counter key, so several registries (or test runs) can share one Redis. */
  keyPrefix: string;
  /** Called when Redis fails (throttled); the request is then let through (fail open). */
  onError: (error: Error) => void;
}

type Route = Parameters<FastifyRateLimitStore['child']>[0];
type Counted = Parameters<FastifyRateLimitStore['incr']>[1];

/** The plugin's Redis store, with every failure reported to `onError` on its way to the plugin. */
export function redisCounters({ redis, keyPrefix, onError }: SharedCounters): FastifyRateLimitStoreCtor {
  const reporting = (inner: FastifyRateLimitStore): FastifyRateLimitStore => ({
    incr(key: string, done: Counted, timeWindow: number, max: number) {
      inner.incr(
        key,
        (error, result) => {
          if (error) onError(error);
          done(error, result);
        },
        timeWindow,
        max,
      );
    },
    child: (route: Route) => reporting(inner.child(route)),
  });
  const counters = reporting(new RedisStore(false, false, redis, `${keyPrefix}rate:`) as FastifyRateLimitStore);
  return class ReportingRedisStore implements FastifyRateLimitStore {
    incr = counters.incr;
    child = counters.child;
  };
}

/** Waits up to `timeoutMs` for the first connection; false when Redis did not answer in time. */
export function untilConnected(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', ready);
      resolve(false);
    }, timeoutMs);
    const ready = () => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', ready);
  });
}

const WARN_EVERY_MS = 10_000;

/**
 * Connects to Redis for shared counters. Commands never wait for a connection (no offline queue) and
 * time out quickly, so an unreachable Redis costs a request milliseconds, not seconds; the request is
 * then served without a limit (fail open). Failures are reported at most every 10 s.
 */
export function connectSharedCounters(url: string, keyPrefix: string, warn: (error: Error) => void): SharedCounters {
  let lastWarning = 0;
  const onError = (error: Error) => {
    const now = Date.now();
    if (now - lastWarning < WARN_EVERY_MS) return;
    lastWarning = now;
    warn(error);
  };
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    commandTimeout: 500,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  redis.on('error', onError);
  return { redis, keyPrefix, onError };
}
