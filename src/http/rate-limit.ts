// Per-tier request limits per minute, counted per agent (all its keys together) or per client address.
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { RateLimits } from '../config.js';
import { rateLimited } from './errors.js';

export interface RateLimitOptions {
  limits: RateLimits;
  /** The counter store; in-process when absent. (@fastify/rate-limit's store interface.) */
  redis?: import('@fastify/rate-limit').RateLimitPluginOptions['redis'];
}

export const WINDOW_MS = 60_000;

export function rateLimitKey(agentId: string | null, ip: string): string {
  return agentId !== null ? `agent:${agentId}` : `ip:${normalizeIP(ip, 64)}`;
}

export async function installRateLimits(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    timeWindow: WINDOW_MS,
    max: (request) => options.limits[request.auth.tier as keyof RateLimits],
    keyGenerator: (request) => rateLimitKey(request.auth.agentId, request.ip),
    // Bounded: the least recently seen callers are forgotten first.
    cache: 20_000,
    errorResponseBuilder: (_request, context) => rateLimited(Math.ceil(context.ttl / 1000), context.max),
    ...(options.redis ? { redis: options.redis, nameSpace: 'registry:rate:' } : {}),
  });
}
