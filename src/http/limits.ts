// Limits that keep one client, or a crowd, from exhausting the service: slow clients time out, work in
// flight is capped (503 with Retry-After beyond it), and an event loop overloaded by requests sheds load.
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import { unavailable } from '../domain/errors.js';

export interface Limits {
  /** Requests being worked on at once (counted once their body is in); beyond it, 503 at once. */
  maxInFlight: number;
  /** Of those, at most this many from one client address, so one client cannot take every slot. */
  maxInFlightPerClient: number;
  /** Event-loop delay beyond which the service answers 503 until it recovers (ms; 0 = off). */
  maxEventLoopDelayMs: number;
  /**
   * That delay sheds only while at least this many requests are in flight. A slow loop with little work in
   * hand (a start-up, a long collection, another process taking the CPU) is not overload, and shedding the
   * few requests there are would not relieve it: they would fail for nothing.
   */
  minInFlightToShed: number;
  /** In-process rate-limit counters kept at most; the least recently seen callers are forgotten first. */
  rateLimitCallers: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxInFlight: 256,
  maxInFlightPerClient: 64,
  maxEventLoopDelayMs: 1_000,
  minInFlightToShed: 32,
  rateLimitCallers: 20_000,
};

export interface ServerTimeouts {
  requestTimeout: number;
  connectionTimeout: number;
  keepAliveTimeout: number;
  maxHeaderSize: number;
  headersTimeout: number;
  connectionsCheckingInterval: number;
}

// The Node server's own guards against slow or oversized clients, passed to Fastify at construction.
export const SERVER_TIMEOUTS: Readonly<ServerTimeouts> = Object.freeze({
  /** A whole request (headers and body) must arrive within this. */
  requestTimeout: 30_000,
  /** A socket with no traffic at all is closed after this. */
  connectionTimeout: 60_000,
  /** Idle keep-alive connections are closed after this. */
  keepAliveTimeout: 10_000,
  /** Headers, request line included, are at most 16 KiB (431 beyond). */
  maxHeaderSize: 16 * 1024,
  /** Headers must arrive within this (slowloris). */
  headersTimeout: 15_000,
  /** How often Node looks for requests past those timeouts (its default, 30 s, would let them linger). */
  connectionsCheckingInterval: 1_000,
});

const RETRY_AFTER_SECONDS = 2;

/**
 * Probes (orchestrators ask by address). They are cheap and never counted against the in-flight caps: a
 * busy instance, or one whose clients hold searches while its index loads, still says it is alive and how
 * ready it is; and liveness is not shed while the event loop lags (readiness is: send traffic elsewhere).
 */
export const PROBES = new Set(['/healthz', '/readyz']);

export async function installLimits(app: FastifyInstance, limits: Limits): Promise<void> {
  let inFlight = 0;
  const perClient = new Map<string, number>();
  const counted = new WeakMap<object, string>();
  const done = (request: object) => {
    const client = counted.get(request);
    if (client === undefined) return;
    counted.delete(request);
    inFlight--;
    const left = (perClient.get(client) ?? 1) - 1;
    if (left > 0) perClient.set(client, left);
    else perClient.delete(client);
  };
  // A closing instance takes no new work (Fastify's own answer to this, return503OnClosing, is off: its body is
  // not the envelope and carries no Retry-After), and says so like any other shed request.
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });
  app.addHook('onRequest', async (request) => {
    if (draining && request.routeOptions.url !== '/healthz') {
      throw unavailable('the registry is shutting down; retry shortly', RETRY_AFTER_SECONDS);
    }
  });
  // Counted once the body is in (preValidation comes after parsing): a client trickling a body holds a
  // connection until the request timeout, never a share of the work the service can do at once.
  app.addHook('preValidation', async (request) => {
    if (PROBES.has(request.routeOptions.url ?? '')) return;
    if (inFlight >= limits.maxInFlight) {
      throw unavailable('the registry is at capacity; retry shortly', RETRY_AFTER_SECONDS);
    }
    const mine = perClient.get(request.ip) ?? 0;
    if (mine >= limits.maxInFlightPerClient) {
      throw unavailable('this client has too many requests in flight; retry shortly', RETRY_AFTER_SECONDS);
    }
    inFlight++;
    perClient.set(request.ip, mine + 1);
    counted.set(request, request.ip);
  });
  // Whichever comes first — the response sent, or the client gone — ends the request's share.
  app.addHook('onResponse', async (request) => done(request));
  app.addHook('onRequestAbort', async (request) => done(request));
  if (limits.maxEventLoopDelayMs > 0) {
    await app.register(underPressure, {
      maxEventLoopDelay: limits.maxEventLoopDelayMs,
      retryAfter: RETRY_AFTER_SECONDS,
      pressureHandler: (request) => {
        if (request.routeOptions.url === '/healthz' || inFlight < limits.minInFlightToShed) return;
        throw unavailable('the registry is overloaded; retry shortly', RETRY_AFTER_SECONDS);
      },
    });
  }
}
