// Every REG_* variable, parsed and validated once. Nothing else reads process.env.
import { getHeapStatistics } from 'node:v8';
import { providerSpecFromEnv, type ProviderSpec } from './search/index.js';
import type { StorageQuota } from './store/store.js';

export type Tier = 'anonymous' | 'free' | 'pro' | 'enterprise';
type KeyTier = Exclude<Tier, 'anonymous'>;
const KEY_TIERS: KeyTier[] = ['free', 'pro', 'enterprise'];

/** Storage an agent may hold at its key's tier (null: unlimited). */
export type Quota = StorageQuota;

export interface RateLimits {
  anonymous: number;
  free: number;
  pro: number;
  enterprise: number;
}

export interface OidcConfig {
  issuer: string;
  audience: string;
  jwksUrl: string;
  /** REG_OIDC_AGENT_PREFIX: token agent ids become `<prefix><claim>`, and key registration refuses ids with it. */
  agentPrefix?: string;
}

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** PostgreSQL connections per instance (REG_DATABASE_POOL_MAX); instances × this must stay below max_connections. */
  databasePoolMax: number;
  /** SQLite: worker threads for lists and searches (REG_SQLITE_READ_WORKERS; 0 = on the main thread). */
  sqliteReadWorkers: number;
  redisUrl: string | null;
  redisKeyPrefix: string;
  /** false, a hop count, or a list of proxy addresses/CIDRs (never "every hop": that trusts the client). */
  trustProxy: boolean | number | string;
  rateLimits: RateLimits;
  openAdminRegistration: boolean;
  /** Registrations per client address per hour; null = unlimited (SPEC.md exempts registration). */
  registerLimitPerHour: number | null;
  oidc: OidcConfig | null;
  logLevel: string;
  /** Tiers anyone may register with (REG_SELF_SERVICE_TIERS); a higher one needs an admin caller. */
  selfServiceTiers: KeyTier[];
  /** Storage quotas per tier (REG_QUOTA_FREE, REG_QUOTA_PRO, REG_QUOTA_ENTERPRISE). */
  quotas: Record<KeyTier, Quota>;
  /** REG_SECRET: seals secrets kept for idempotent replays; null = one per data directory or process. */
  secret: string | null;
  /** What the configuration turned off or ignored, logged at start-up and shown by /readyz. */
  warnings: string[];
  /** The embedding model search uses (REG_EMBEDDINGS, REG_EMBEDDINGS_URL, _MODEL, _API_KEY, _DIMENSIONS). */
  embeddings: ProviderSpec;
  /**
   * Distinct words each kind's search index holds at most (REG_SEARCH_MAX_TERMS), and how many of them one
   * agent's items may bring in (REG_SEARCH_AGENT_TERMS); beyond, new words are not indexed.
   */
  searchVocabulary: { total: number; perAgent: number };
  /**
   * Where the search index is saved, to load it at start-up instead of rebuilding it (REG_SEARCH_SNAPSHOT_DIR;
   * default: `<database>.search` beside a SQLite file; none for PostgreSQL or memory; `none` turns it off).
   */
  searchSnapshotDir: string | null;
  /** Versions one skill may hold (REG_SKILL_MAX_VERSIONS); a publication beyond is refused. */
  maxSkillVersions: number;
  /**
   * Host names the service answers to (REG_ALLOWED_HOSTS; null: any). A page served from another name that
   * resolves to this service (DNS rebinding) is refused. Loopback names by default when bound to loopback.
   */
  allowedHosts: string[] | null;
}

export class ConfigError extends Error {}

const LOG_LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

function flag(value: string | undefined): boolean {
  if (value === undefined) return false;
  return !['', '0', 'false', 'no', 'off'].includes(value.trim().toLowerCase());
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

// REG_TRUST_PROXY: a number is how many proxies stand in front of the service (the client address is
// the one the outermost of them saw); "true" means one; anything else is an address list passed to
// Fastify ("127.0.0.1,10.0.0.0/8"). Trusting every hop would take the leftmost X-Forwarded-For entry,
// which the client writes itself.
function trustProxy(raw: string | undefined): number | string | false {
  if (raw === undefined || raw.trim() === '') return false;
  const value = raw.trim();
  if (['0', 'false', 'no', 'off'].includes(value.toLowerCase())) return false;
  if (['true', 'yes', 'on'].includes(value.toLowerCase())) return 1;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 32) throw new ConfigError(`REG_TRUST_PROXY must be a hop count from 0 to 32, true, or a list of proxy addresses, got "${raw}"`);
    return hops;
  }
  return value;
}

const DEFAULT_QUOTAS: Record<KeyTier, Quota> = {
  free: { units: 10_000, skills: 1_000, bytes: 100 * 1024 ** 2 },
  pro: { units: 100_000, skills: 10_000, bytes: 1024 ** 3 },
  enterprise: { units: 1_000_000, skills: 100_000, bytes: 10 * 1024 ** 3 },
};
const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3, tb: 1024 ** 4 };

/** `units=10000,skills=1000,bytes=100MB` (any subset; `unlimited` for no bound) over the tier's defaults. */
function quota(env: NodeJS.ProcessEnv, tier: KeyTier): Quota {
  const name = `REG_QUOTA_${tier.toUpperCase()}`;
  const raw = env[name]?.trim();
  const result = { ...DEFAULT_QUOTAS[tier] };
  if (!raw) return result;
  for (const part of raw.split(',')) {
    const match = /^\s*(units|skills|bytes)\s*=\s*(unlimited|\d+)\s*([a-zA-Z]*)\s*$/.exec(part);
    const unit = match?.[3]?.toLowerCase() ?? '';
    if (!match || !(unit in SIZE_UNITS) || (unit !== '' && match[1] !== 'bytes')) {
      throw new ConfigError(`${name} must look like "units=10000,skills=1000,bytes=100MB" (or "unlimited"), got "${raw}"`);
    }
    const key = match[1] as keyof Quota;
    result[key] = match[2] === 'unlimited' ? null : Number(match[2]) * SIZE_UNITS[unit]!;
  }
  return result;
}

function selfServiceTiers(raw: string | undefined): KeyTier[] {
  if (raw === undefined || raw.trim() === '') return [...KEY_TIERS];
  const tiers = [...new Set(raw.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean))];
  const unknown = tiers.filter((t) => !KEY_TIERS.includes(t as KeyTier));
  if (unknown.length > 0 || tiers.length === 0) {
    throw new ConfigError(`REG_SELF_SERVICE_TIERS must name tiers from ${KEY_TIERS.join(', ')}, got "${raw}"`);
  }
  return tiers as KeyTier[];
}

const OIDC_VARIABLES = ['REG_OIDC_ISSUER', 'REG_OIDC_AUDIENCE', 'REG_OIDC_JWKS_URL'] as const;
const AGENT_PREFIX = /^[^\s\p{Cc}\p{Cf}]{1,64}$/u;

// SPEC.md: with any of the three missing, JWT authentication is disabled and API keys still apply. A
// half-set configuration is most likely a typo, so it is said loudly: a warning at start-up naming what
// is missing, and the same line in /readyz.
function oidcConfig(env: NodeJS.ProcessEnv, warnings: string[]): OidcConfig | null {
  const [issuer, audience, jwksUrl] = OIDC_VARIABLES.map((name) => env[name]?.trim() || '') as [string, string, string];
  const agentPrefix = env.REG_OIDC_AGENT_PREFIX ?? '';
  const missing = OIDC_VARIABLES.filter((name) => !env[name]?.trim());
  if (missing.length === OIDC_VARIABLES.length && agentPrefix === '') return null;
  if (missing.length > 0) {
    const why = missing.length === OIDC_VARIABLES.length ? 'REG_OIDC_AGENT_PREFIX is set, but' : 'OIDC is only partly configured:';
    warnings.push(
      `${why} ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing, so identity-provider (JWT) authentication is OFF ` +
        'and only API keys apply (set all three to turn it on)',
    );
    return null;
  }
  if (agentPrefix === '') return { issuer, audience, jwksUrl };
  if (!AGENT_PREFIX.test(agentPrefix)) {
    throw new ConfigError('REG_OIDC_AGENT_PREFIX must be 1 to 64 characters without whitespace, control or format characters');
  }
  return { issuer, audience, jwksUrl, agentPrefix };
}

function embeddings(env: NodeJS.ProcessEnv): ProviderSpec {
  try {
    return providerSpecFromEnv(env);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

function searchSnapshotDir(env: NodeJS.ProcessEnv, databaseUrl: string): string | null {
  const dir = env.REG_SEARCH_SNAPSHOT_DIR?.trim();
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
function searchVocabulary(env: NodeJS.ProcessEnv): Config['searchVocabulary'] {
  const byHeap = Math.floor((getHeapStatistics().heap_size_limit * 0.25) / BYTES_PER_TERM);
  const total = integer(env, 'REG_SEARCH_MAX_TERMS', byHeap, 1_000, 1_000_000_000);
  return { total, perAgent: integer(env, 'REG_SEARCH_AGENT_TERMS', Math.max(1_000, Math.floor(total / 4)), 100, 1_000_000_000) };
}

const LOOPBACK_ADDRESSES = new Set(['127.0.0.1', '::1', 'localhost']);
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

/** REG_ALLOWED_HOSTS: `*`, or host names (no ports); by default the loopback names when bound to loopback, else any. */
function allowedHosts(env: NodeJS.ProcessEnv, host: string, warnings: string[]): string[] | null {
  const raw = env.REG_ALLOWED_HOSTS?.trim();
  if (raw === '*') return null;
  if (raw) {
    const names = raw.split(',').map((name) => name.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1')).filter(Boolean);
    const bad = names.find((name) => !/^[a-z0-9.:_-]{1,253}$/.test(name));
    if (bad !== undefined || names.length === 0) throw new ConfigError(`REG_ALLOWED_HOSTS must be * or host names separated by commas (no ports), got "${raw}"`);
    return names;
  }
  if (LOOPBACK_ADDRESSES.has(host)) return LOOPBACK_NAMES;
  warnings.push(`REG_ALLOWED_HOSTS is not set and REG_HOST is ${host}: any Host header is answered; name the hosts clients use to refuse DNS-rebinding pages`);
  return null;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.REG_DATABASE_URL?.trim() || 'sqlite:./data/registry.db';
  if (!/^(sqlite:|postgres:\/\/|postgresql:\/\/)/.test(databaseUrl)) {
    throw new ConfigError('REG_DATABASE_URL must start with sqlite: or postgres://');
  }
  const warnings: string[] = [];
  const oidc = oidcConfig(env, warnings);
  const logLevel = env.REG_LOG_LEVEL?.trim() || 'info';
  if (!LOG_LEVELS.has(logLevel)) throw new ConfigError(`REG_LOG_LEVEL must be one of ${[...LOG_LEVELS].join(', ')}`);

  const host = env.REG_HOST?.trim() || '127.0.0.1';
  return {
    port: integer(env, 'REG_PORT', 3000, 0, 65535),
    host,
    databaseUrl,
    databasePoolMax: integer(env, 'REG_DATABASE_POOL_MAX', 10, 1, 1000),
    sqliteReadWorkers: integer(env, 'REG_SQLITE_READ_WORKERS', 2, 0, 64),
    redisUrl: env.REG_REDIS_URL?.trim() || null,
    redisKeyPrefix: env.REG_REDIS_KEY_PREFIX?.trim() || 'registry:',
    trustProxy: trustProxy(env.REG_TRUST_PROXY),
    rateLimits: {
      anonymous: integer(env, 'REG_RATE_LIMIT_ANONYMOUS', 60, 1, 10_000_000),
      free: integer(env, 'REG_RATE_LIMIT_FREE', 600, 1, 10_000_000),
      pro: integer(env, 'REG_RATE_LIMIT_PRO', 3000, 1, 10_000_000),
      enterprise: integer(env, 'REG_RATE_LIMIT_ENTERPRISE', 15000, 1, 10_000_000),
    },
    openAdminRegistration: flag(env.REG_OPEN_ADMIN_REGISTRATION),
    registerLimitPerHour: env.REG_REGISTER_LIMIT?.trim() ? integer(env, 'REG_REGISTER_LIMIT', 0, 1, 10_000_000) : null,
    oidc,
    logLevel,
    selfServiceTiers: selfServiceTiers(env.REG_SELF_SERVICE_TIERS),
    quotas: { free: quota(env, 'free'), pro: quota(env, 'pro'), enterprise: quota(env, 'enterprise') },
    secret: env.REG_SECRET?.trim() || null,
    warnings,
    embeddings: embeddings(env),
    searchVocabulary: searchVocabulary(env),
    searchSnapshotDir: searchSnapshotDir(env, databaseUrl),
    maxSkillVersions: integer(env, 'REG_SKILL_MAX_VERSIONS', 1_000, 1, 1_000_000),
    allowedHosts: allowedHosts(env, host, warnings),
  };
}
