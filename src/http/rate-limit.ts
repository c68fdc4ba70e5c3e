// Per-tier request limits per minute, counted per agent (all its keys together) or per client address.
// Counters live in this process, or in Redis (shared by every instance) when a client is given.
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { RateLimits } from '../config/index.js';
import { rateLimited } from '../domain/errors.js';
import { redisCounters, type SharedCounters } from './redis-counters.js';

export const WINDOW_MS = 60_000;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false for a page or asset for people (the /docs page and its scripts): not an API call, so never counted. */
    apiCall?: false;
  }
}

export interface RateLimitOptions {
  limits: RateLimits;
  shared?: SharedCounters | undefined;
  /** In-process counters kept at most (least recently seen forgotten first). */
  callers: number;
}

export function rateLimitKey(agentId: string | null, ip: string): string {
  return agentId !== null ? `agent:${agentId}` : `ip:${normalizeIP(ip, 64)}`;
}

export async function installRateLimits(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    timeWindow: WINDOW_MS,
    max: (request) => options.limits[request.auth.tier as keyof RateLimits],
    keyGenerator: (request) => rateLimitKey(request.auth.agentId, request.ip),
    cache: options.callers,
    // Routes added by plugins (the /docs page) cannot say `rateLimit: false` themselves; they say apiCall: false.
    allowList: (request) => request.routeOptions.config.apiCall === false,
    errorResponseBuilder: (_request, context) => rateLimited(Math.ceil(context.ttl / 1000), context.max),
    // Fail open: when Redis is unreachable the registry keeps serving (unlimited) and logs a warning.
    ...(options.shared ? { store: redisCounters(options.shared), skipOnError: true } : {}),
  });
}
