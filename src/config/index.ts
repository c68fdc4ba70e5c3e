// The service's configuration: every REG_* variable (declared with its type, bounds, default and
// documentation in config/variables.ts) read and checked once at start, then shaped for the code that
// consumes it. Nothing else reads process.env.
import { getHeapStatistics } from 'node:v8';
import { ConfigError, readVariables } from './read.js';
import { defaultQuota, type Settings } from './variables.js';
import { KEY_TIERS, type KeyTier } from '../domain/model.js';
import type { ProviderSpec } from '../search/index.js';
import type { StorageQuota } from '../store/store.js';

export { ConfigError };

/** Storage an agent may hold at its key's tier (null: unlimited). */
export type Quota = StorageQuota;

export type RateLimits = Record<KeyTier | 'anonymous', number>;

export interface OidcConfig {
  issuer: string;
  audience: string;
  jwksUrl: string;
  /** REG_OIDC_AGENT_PREFIX: token agent ids become `<prefix><claim>`, and key registration refuses ids with it. */
  agentPrefix?: string;
}

/**
 * The configuration as the code consumes it: its type is what loadConfig returns, so a new setting is
 * declared once (config/variables.ts) and shaped once (loadConfig below), and nothing else is edited.
 */
export type Config = ReturnType<typeof loadConfig>;

// REG_TRUST_PROXY: a number is how many proxies stand in front of the service (the client address is
// the one the outermost of them saw); "true" means one; anything else is an address list passed to
// Fastify ("127.0.0.1,10.0.0.0/8"). Trusting every hop would take the leftmost X-Forwarded-For entry,
// which the client writes itself.
function trustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || ['0', 'false', 'no', 'off'].includes(value.toLowerCase())) return false;
  if (['true', 'yes', 'on'].includes(value.toLowerCase())) return 1;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 32)
      throw new ConfigError(
        `REG_TRUST_PROXY must be a hop count from 0 to 32, true, or a list of proxy addresses, got "${value}"`,
      );
    return hops;
  }
  return value;
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3, tb: 1024 ** 4 };

/** `units=10000,skills=1000,bytes=100MB` (any subset; `unlimited` for no bound) over the tier's defaults. */
function quota(settings: Settings, tier: KeyTier): Quota {
  const result: Quota = { units: null, skills: null, bytes: null };
  const upper = tier.toUpperCase() as Uppercase<KeyTier>;
  for (const raw of [defaultQuota(tier), settings[`REG_QUOTA_${upper}`] ?? '']) {
    for (const part of raw.split(',').filter((p) => p.trim() !== '')) {
      const [, key, amount, unit = ''] = /^\s*(units|skills|bytes)\s*=\s*(unlimited|\d+)\s*([a-zA-Z]*)\s*$/.exec(part)!;
      if (unit !== '' && key !== 'bytes')
        throw new ConfigError(`REG_QUOTA_${tier.toUpperCase()}: only bytes take a unit (KB, MB, GB, TB), got "${raw}"`);
      result[key as keyof Quota] = amount === 'unlimited' ? null : Number(amount) * SIZE_UNITS[unit.toLowerCase()]!;
    }
  }
  return result;
}

const selfServiceTiers = (value: string) =>
  [...new Set(value.split(',').map((t) => t.trim().toLowerCase()))] as KeyTier[];

const OIDC_VARIABLES = ['REG_OIDC_ISSUER', 'REG_OIDC_AUDIENCE', 'REG_OIDC_JWKS_URL'] as const;

// With any of the three missing, JWT authentication is disabled and API keys still apply. A half-set
// configuration is most likely a typo, so it is said loudly: a warning at start-up naming what is
// missing, and the same line in /readyz.
function oidcConfig(settings: Settings, warnings: string[]): OidcConfig | null {
  const [issuer, audience, jwksUrl] = OIDC_VARIABLES.map((name) => settings[name] ?? '') as [string, string, string];
  const agentPrefix = settings.REG_OIDC_AGENT_PREFIX;
  const missing = OIDC_VARIABLES.filter((name) => settings[name] === undefined);
  if (missing.length === OIDC_VARIABLES.length && agentPrefix === undefined) return null;
  if (missing.length > 0) {
    const why =
      missing.length === OIDC_VARIABLES.length
        ? 'REG_OIDC_AGENT_PREFIX is set, but'
        : 'OIDC is only partly configured:';
    warnings.push(
      `${why} ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing, so identity-provider (JWT) authentication is OFF ` +
        'and only API keys apply (set all three to turn it on)',
    );
    return null;
  }
  return { issuer, audience, jwksUrl, ...(agentPrefix !== undefined ? { agentPrefix } : {}) };
}

function embeddings(settings: Settings): ProviderSpec {
  const kind = settings.REG_EMBEDDINGS;
  if (kind !== 'openai') return { kind: kind === 'builtin' ? 'builtin' : 'none' };
  const url = settings.REG_EMBEDDINGS_URL;
  const model = settings.REG_EMBEDDINGS_MODEL;
  if (!url || !model) throw new ConfigError('REG_EMBEDDINGS=openai needs REG_EMBEDDINGS_URL and REG_EMBEDDINGS_MODEL');
  const apiKey = settings.REG_EMBEDDINGS_API_KEY;
  const dimensions = settings.REG_EMBEDDINGS_DIMENSIONS;
  return { kind: 'openai', url, model, ...(apiKey ? { apiKey } : {}), ...(dimensions ? { dimensions } : {}) };
}

function searchSnapshotDir(dir: string | undefined, databaseUrl: string): string | null {
  if (dir) return dir === 'none' ? null : dir;
  const file = /^sqlite:(.+)$/.exec(databaseUrl)?.[1];
  return file && file !== ':memory:' ? `${file}.search` : null;
}

/** Bytes a distinct word costs the search index (measured on 20,000 real skills: ~1 KiB of heap and RSS). */
const BYTES_PER_TERM = 1024;

/**
 * By default each kind's vocabulary may take a quarter of the V8 heap (with the default 4 GiB heap: about
 * a million words each; 20,000 real skills hold 200,000), and one agent a quarter of that.
 */
function searchVocabulary(settings: Settings): { total: number; perAgent: number } {
  const total =
    settings.REG_SEARCH_MAX_TERMS ?? Math.floor((getHeapStatistics().heap_size_limit * 0.25) / BYTES_PER_TERM);
  return { total, perAgent: settings.REG_SEARCH_AGENT_TERMS ?? Math.max(1_000, Math.floor(total / 4)) };
}

const LOOPBACK_ADDRESSES = new Set(['127.0.0.1', '::1', 'localhost']);
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

/** REG_ALLOWED_HOSTS: `*`, or host names (no ports); by default the loopback names when bound to loopback, else any. */
function allowedHosts(value: string | undefined, host: string, warnings: string[]): string[] | null {
  if (value === '*') return null;
  if (value !== undefined)
    return value.split(',').map((name) =>
      name
        .trim()
        .toLowerCase()
        .replace(/^\[(.*)\]$/, '$1'),
    );
  if (LOOPBACK_ADDRESSES.has(host)) return LOOPBACK_NAMES;
  warnings.push(
    `REG_ALLOWED_HOSTS is not set and REG_HOST is ${host}: any Host header is answered; name the hosts clients use to refuse DNS-rebinding pages`,
  );
  return null;
}

function metrics(value: string): { mode: 'off' | 'admin' } | { mode: 'port'; port: number } {
  if (value === 'off' || value === 'admin') return { mode: value };
  const port = Number(value.slice('port:'.length));
  if (port < 1 || port > 65535)
    throw new ConfigError(
      `REG_METRICS must be off, admin, or port:<number> with a port from 1 to 65535, got "${value}"`,
    );
  return { mode: 'port', port };
}

const corsOrigins = (value: string | undefined): string[] | '*' | null =>
  value === undefined ? null : value === '*' ? '*' : value.split(',').map((origin) => origin.trim());

const perTier = <T>(value: (tier: KeyTier, upper: Uppercase<KeyTier>) => T) =>
  Object.fromEntries(KEY_TIERS.map((tier) => [tier, value(tier, tier.toUpperCase() as Uppercase<KeyTier>)])) as Record<
    KeyTier,
    T
  >;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const settings = readVariables(env);
  const warnings: string[] = [];
  const host = settings.REG_HOST;
  return {
    port: settings.REG_PORT,
    host,
    databaseUrl: settings.REG_DATABASE_URL,
    /** PostgreSQL connections per instance (REG_DATABASE_POOL_MAX); instances × this must stay below max_connections. */
    databasePoolMax: settings.REG_DATABASE_POOL_MAX,
    /** SQLite: worker threads for lists (REG_SQLITE_READ_WORKERS; 0 = on the main thread). */
    sqliteReadWorkers: settings.REG_SQLITE_READ_WORKERS,
    redisUrl: settings.REG_REDIS_URL ?? null,
    redisKeyPrefix: settings.REG_REDIS_KEY_PREFIX,
    /** false, a hop count, or a list of proxy addresses/CIDRs (never "every hop": that trusts the client). */
    trustProxy: trustProxy(settings.REG_TRUST_PROXY),
    rateLimits: {
      anonymous: settings.REG_RATE_LIMIT_ANONYMOUS,
      ...perTier((_, upper) => settings[`REG_RATE_LIMIT_${upper}`]),
    } as RateLimits,
    openAdminRegistration: settings.REG_OPEN_ADMIN_REGISTRATION,
    /** Registrations per client address per hour; null = unlimited: registration is open by design (docs/security.md). */
    registerLimitPerHour: settings.REG_REGISTER_LIMIT ?? null,
    oidc: oidcConfig(settings, warnings),
    logLevel: settings.REG_LOG_LEVEL,
    /** Tiers anyone may register with (REG_SELF_SERVICE_TIERS); a higher one needs an admin caller. */
    selfServiceTiers: selfServiceTiers(settings.REG_SELF_SERVICE_TIERS),
    /** Storage quotas per tier (REG_QUOTA_FREE, REG_QUOTA_PRO, REG_QUOTA_ENTERPRISE). */
    quotas: perTier((tier) => quota(settings, tier)),
    /** Reports an agent may file per UTC day, per tier (REG_REPORTS_PER_DAY_FREE, _PRO, _ENTERPRISE). */
    reportsPerDay: perTier((_, upper) => settings[`REG_REPORTS_PER_DAY_${upper}`]),
    /** REG_SECRET: seals secrets kept for idempotent replays; null = one per data directory or process. */
    secret: settings.REG_SECRET ?? null,
    /** What the configuration turned off or ignored, logged at start-up and shown by /readyz. */
    warnings,
    /** The embedding model search uses (REG_EMBEDDINGS, REG_EMBEDDINGS_URL, _MODEL, _API_KEY, _DIMENSIONS). */
    embeddings: embeddings(settings),
    /**
     * Distinct words each kind's search index holds at most (REG_SEARCH_MAX_TERMS), and how many of them one
     * agent's items may bring in (REG_SEARCH_AGENT_TERMS); beyond, new words are not indexed.
     */
    searchVocabulary: searchVocabulary(settings),
    /** Versions one skill may hold (REG_SKILL_MAX_VERSIONS); a publication beyond is refused. */
    maxSkillVersions: settings.REG_SKILL_MAX_VERSIONS,
    /**
     * Where the search index is saved, to load it at start-up instead of rebuilding it (REG_SEARCH_SNAPSHOT_DIR;
     * default: `<database>.search` beside a SQLite file; none for PostgreSQL or memory; `none` turns it off).
     */
    searchSnapshotDir: searchSnapshotDir(settings.REG_SEARCH_SNAPSHOT_DIR, settings.REG_DATABASE_URL),
    /** How long a search arriving while the index loads waits for it, in ms (REG_SEARCH_START_WAIT_S); then 503. */
    searchStartWaitMs: settings.REG_SEARCH_START_WAIT_S * 1000,
    /** Worker threads that score long search queries off the event loop (REG_SEARCH_WORKERS; null: the default). */
    searchWorkers: settings.REG_SEARCH_WORKERS ?? null,
    /**
     * Host names the service answers to (REG_ALLOWED_HOSTS; null: any). A page served from another name that
     * resolves to this service (DNS rebinding) is refused. Loopback names by default when bound to loopback.
     */
    allowedHosts: allowedHosts(settings.REG_ALLOWED_HOSTS, host, warnings),
    /** REG_METRICS: no /metrics, /metrics for admin keys, or a port of its own without keys. */
    metrics: metrics(settings.REG_METRICS),
    /** REG_CORS_ORIGINS: origins browsers may call from ('*': any); null: CORS off. */
    corsOrigins: corsOrigins(settings.REG_CORS_ORIGINS),
  };
}
