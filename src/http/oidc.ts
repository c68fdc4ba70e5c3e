// Bearer JWTs from an identity provider (docs/oidc.md): optional, on when issuer, audience and key set are configured.
// Signatures are checked by jose against the provider's remote key set; this module decides which
// algorithms are acceptable, how claims become a Caller, and who owns an agent id.
import type { FastifyBaseLogger } from 'fastify';
import {
  createLocalJWKSet,
  errors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTHeaderParameters,
  type JWTVerifyOptions,
  type JWTVerifyResult,
  type FlattenedJWSInput,
} from 'jose';
import { ConfigError, type OidcConfig } from '../config/index.js';
import type { AgentOrigin, Store } from '../store/store.js';
import type { Caller } from '../domain/caller.js';
import { identityFromClaims, tokenUseProblem, type Identity } from './oidc-claims.js';

/** Asymmetric algorithms only: `none` and every HMAC algorithm are refused, so a public key can never act as a secret. */
export const JWT_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;

/** A key-set fetch is abandoned after this long, so a dead endpoint never holds a request longer. */
export const DEFAULT_JWKS_TIMEOUT_MS = 2_500;
const DEFAULT_CLOCK_TOLERANCE_SEC = 30;

// Agent origins never change once claimed, so they can be remembered without expiry (bounded).
const ORIGIN_CACHE_SIZE = 10_000;

export type VerifierLog = Pick<FastifyBaseLogger, 'debug' | 'warn'>;

export interface JwtVerifierOptions {
  log?: VerifierLog;
  /** Leeway for `exp`, `nbf` and `iat`, in seconds (default 30). */
  clockToleranceSec?: number;
  /** After a successful fetch, an unknown `kid` triggers another only after this long (default 30 s). */
  cooldownMs?: number;
  /** After a failed fetch, no new fetch is tried for this long; JWTs needing one are refused (default 5 s). */
  failureBackoffMs?: number;
  /** A key-set fetch is abandoned after this long (default DEFAULT_JWKS_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Cached keys are refetched after this long (default 10 min). */
  cacheMaxAgeMs?: number;
  /** The clock for claims, the cooldown, the cache's age and the back-off (a fetch's own timeout is real time). */
  now?: () => Date;
}

export interface JwksStatus {
  fetches: number;
  failures: number;
  lastFailure: string | null;
}

/** A BearerVerifier (pass it as `jwt` to buildApp) with hooks for start-up and shutdown. Bound to one store. */
export interface JwtVerifier {
  (token: string): Promise<Caller | null>;
  /** Sets the logger once the app (and its logger) exists. */
  useLogger(log: VerifierLog): void;
  status(): JwksStatus;
  /** Aborts key-set fetches in flight; every later token is refused. */
  close(): void;
}

/** Every way fetching the key set can fail: network, timeout, non-200, not a key set, or backing off. */
class JwksUnavailableError extends Error {
  readonly code = 'ERR_REGISTRY_JWKS_UNAVAILABLE';
}

const silent: VerifierLog = { debug: () => undefined, warn: () => undefined } as unknown as VerifierLog;

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

function jwksUrlOf(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`REG_OIDC_JWKS_URL must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError(`REG_OIDC_JWKS_URL must be an http(s) URL, got "${raw}"`);
  }
  return url;
}

/** "timeout", "ECONNREFUSED", "HTTP 500"…: short enough for a log line, never a stack. */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return 'timeout';
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const detail = cause?.code ?? cause?.message;
  return typeof detail === 'string' ? `${error.message} (${detail})` : error.message;
}

export function createJwtVerifier(oidc: OidcConfig, store: Store, options: JwtVerifierOptions = {}): JwtVerifier {
  const url = jwksUrlOf(oidc.jwksUrl);
  const now = options.now ?? (() => new Date());
  const agentPrefix = oidc.agentPrefix ?? '';
  const clockToleranceSec = options.clockToleranceSec ?? DEFAULT_CLOCK_TOLERANCE_SEC;
  const failureBackoffMs = options.failureBackoffMs ?? 5_000;
  let log = options.log ?? silent;
  let closed = false;
  const shutdown = new AbortController();
  const status: JwksStatus = { fetches: 0, failures: 0, lastFailure: null };
  const cooldownMs = options.cooldownMs ?? 30_000;
  const cacheMaxAgeMs = options.cacheMaxAgeMs ?? 600_000;
  const timeoutMs = options.timeoutMs ?? DEFAULT_JWKS_TIMEOUT_MS;
  const elapsedSince = (at: number) => now().getTime() - at;
  let failedAt = Number.NEGATIVE_INFINITY;

  // Every key-set fetch passes here: it is counted, bounded by a timeout and our shutdown, and a failure
  // makes the next ones fail fast for a while, so a dead provider is neither hammered nor waited on.
  async function fetchKeySet(): Promise<JSONWebKeySet> {
    if (closed) throw new JwksUnavailableError('verifier closed');
    if (elapsedSince(failedAt) < failureBackoffMs) throw new JwksUnavailableError('backing off after a failed fetch');
    status.fetches++;
    try {
      const response = await fetch(url, {
        headers: { accept: 'application/json, application/jwk-set+json' },
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), shutdown.signal]),
      });
      if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
      const body = (await response.json()) as { keys?: unknown };
      if (body === null || typeof body !== 'object' || !Array.isArray(body.keys))
        throw new Error('not a JSON Web Key Set');
      return body as JSONWebKeySet;
    } catch (error) {
      if (closed) throw new JwksUnavailableError('verifier closed');
      failedAt = now().getTime();
      status.failures++;
      status.lastFailure = describeFailure(error);
      log.warn(
        { jwksUrl: url.href, reason: status.lastFailure },
        'OIDC key set unavailable; bearer JWTs that need it are refused until it answers',
      );
      throw new JwksUnavailableError(status.lastFailure, { cause: error });
    }
  }

  // The provider's keys, held here rather than in jose's remote key set so that the cooldown and the cache's
  // age are read on the verifier's clock, as the claims are: jose's own read the machine's, which a test
  // cannot hold still and a loaded machine moves past a short cooldown between two requests.
  let held: ReturnType<typeof createLocalJWKSet> | null = null;
  let fetchedAt = Number.NEGATIVE_INFINITY;
  let pending: Promise<void> | null = null;
  const reload = () =>
    (pending ??= fetchKeySet()
      .then((keys) => {
        held = createLocalJWKSet(keys);
        fetchedAt = now().getTime();
      })
      .finally(() => (pending = null)));
  const keySet = async (header: JWTHeaderParameters, token: FlattenedJWSInput) => {
    if (held === null || elapsedSince(fetchedAt) >= cacheMaxAgeMs) await reload();
    try {
      return await held!(header, token);
    } catch (error) {
      // An unknown kid may be a rotation: the set is fetched again, at most once per cooldown.
      if (!(error instanceof errors.JWKSNoMatchingKey) || elapsedSince(fetchedAt) < cooldownMs) throw error;
      await reload();
      return await held!(header, token);
    }
  };

  const verifyOptions = (): JWTVerifyOptions => ({
    issuer: oidc.issuer,
    audience: oidc.audience,
    algorithms: [...JWT_ALGORITHMS],
    clockTolerance: clockToleranceSec,
    requiredClaims: ['exp'],
    currentDate: now(),
  });

  async function verifySignature(token: string): Promise<JWTVerifyResult> {
    const verifyOpts = verifyOptions();
    try {
      return await jwtVerify(token, keySet, verifyOpts);
    } catch (error) {
      // A token without `kid` while the set holds several keys of its type: try each candidate.
      if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw error;
      for await (const candidate of error) {
        try {
          return await jwtVerify(token, candidate, verifyOpts);
        } catch (inner) {
          if (!(inner instanceof errors.JWSSignatureVerificationFailed)) throw inner;
        }
      }
      throw new errors.JWSSignatureVerificationFailed();
    }
  }

  const origins = new Map<string, AgentOrigin>();
  async function originOf(agentId: string): Promise<AgentOrigin> {
    const known = origins.get(agentId);
    if (known) return known;
    // A read first: the common case (an agent seen before) needs no write.
    const origin = (await store.agentOrigin(agentId)) ?? (await store.claimOidcAgent(agentId, now().toISOString()));
    if (origins.size >= ORIGIN_CACHE_SIZE) origins.delete(origins.keys().next().value!);
    origins.set(agentId, origin);
    // Once per id while it is remembered: a client retrying in a loop must not flood the log.
    if (origin !== 'oidc') {
      log.warn(
        { reason: 'agent_id_owned_by_api_key', agentId },
        'bearer JWTs for this agent id are refused: it was registered with an API key',
      );
    }
    return origin;
  }

  /** The token's identity, or null when the token does not verify; never touches the store. */
  async function verifiedIdentity(token: string): Promise<Identity | null> {
    try {
      const { payload, protectedHeader } = await verifySignature(token);
      const problem = tokenUseProblem(protectedHeader, payload, Math.floor(now().getTime() / 1000), clockToleranceSec);
      const identity = problem === null ? identityFromClaims(payload, agentPrefix) : { problem };
      if ('problem' in identity) {
        log.debug({ reason: 'claims', detail: identity.problem }, 'bearer JWT refused');
        return null;
      }
      return identity;
    } catch (error) {
      if (error instanceof JwksUnavailableError) {
        log.debug({ reason: 'jwks_unavailable', detail: error.message }, 'bearer JWT refused');
      } else if (error instanceof errors.JOSEError) {
        log.debug({ reason: error.code, detail: error.message }, 'bearer JWT refused');
      } else {
        log.warn({ reason: 'unexpected', err: error }, 'bearer JWT refused: verification failed unexpectedly');
      }
      return null;
    }
  }

  const verifier = (async (token: string): Promise<Caller | null> => {
    if (closed) return null;
    const identity = await verifiedIdentity(token);
    if (!identity) return null;
    // The identity rule: the first kind of credential to use an agent id owns it. Outside the catch
    // above on purpose: a database outage is a 503 for the client to retry, not a bad token.
    if ((await originOf(identity.agentId)) !== 'oidc') {
      log.debug({ reason: 'agent_id_owned_by_api_key', agentId: identity.agentId }, 'bearer JWT refused');
      return null;
    }
    return { authenticated: true, apiKey: null, keyId: null, method: 'oidc', ...identity };
  }) as JwtVerifier;

  verifier.useLogger = (next) => {
    log = next;
    if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
      log.warn(
        { jwksUrl: url.href },
        'REG_OIDC_JWKS_URL is plain http: anyone on the path can substitute signing keys',
      );
    }
  };
  verifier.status = () => ({ ...status });
  verifier.close = () => {
    closed = true;
    shutdown.abort();
  };
  if (options.log) verifier.useLogger(options.log);
  return verifier;
}
