// Rate-limit counters in Redis, shared by every instance: one atomic round trip per request.
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { Redis } from 'ioredis';

export interface SharedCounters {
  redis: Redis;
  /** Prefix of every counter key, so several registries (or test runs) can share one Redis. */
  keyPrefix: string;
  /** Called when Redis fails; the request is then let through (fail open). */
  onError: (error: Error) => void;
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

// One round trip, atomic: count the request and read the window's remaining time. A key that somehow
// lost its expiry gets one again, so no counter can stay forever.
const COUNT_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

type Counted = Parameters<FastifyRateLimitStore['incr']>[1];
type CountReply = (error: Error | null, result?: [number, number]) => void;
type CountingRedis = Redis & { registryCount?: (key: string, windowMs: number, callback: CountReply) => void };

/** The counter store @fastify/rate-limit calls (its `store` interface), backed by Redis. */
export function redisCounters({ redis, keyPrefix, onError }: SharedCounters): FastifyRateLimitStoreCtor {
  const client = redis as CountingRedis;
  if (!client.registryCount) client.defineCommand('registryCount', { numberOfKeys: 1, lua: COUNT_SCRIPT });
  const count = client.registryCount!.bind(client);
  return class RedisCounters implements FastifyRateLimitStore {
    namespace = `${keyPrefix}rate:`;

    incr(key: string, done: Counted, windowMs: number): void {
      count(`${this.namespace}${key}`, windowMs, (error, result) => {
        if (error || !result) {
          const failure = error ?? new Error('no answer from Redis');
          onError(failure);
          done(failure);
        } else done(null, { current: Number(result[0]), ttl: Number(result[1]) });
      });
    }

    /** A route with a limit of its own (registration) counts in its own namespace. */
    child(route: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // @fastify/rate-limit passes the route's merged settings, with the route itself under routeInfo.
      const info = (route as unknown as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
      const counters = new RedisCounters();
      counters.namespace = `${this.namespace}${String(info?.method)}${String(info?.url)}:`;
      return counters;
    }
  };
}

const WARN_EVERY_MS = 10_000;

/**
 * Connects to Redis for shared counters. Commands never wait for a connection (no offline queue) and
 * time out quickly, so an unreachable Redis costs a request milliseconds, not seconds. Warnings are
 * logged at most every 10 s.
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
