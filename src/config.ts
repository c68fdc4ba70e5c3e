// Every REG_* variable, parsed and validated once. Nothing else reads process.env.

export type Tier = 'anonymous' | 'free' | 'pro' | 'enterprise';

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
  trustProxy: boolean | string;
  rateLimits: RateLimits;
  openAdminRegistration: boolean;
  /** Registrations per client address per hour; null = unlimited (SPEC.md exempts registration). */
  registerLimitPerHour: number | null;
  oidc: OidcConfig | null;
  logLevel: string;
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

// REG_TRUST_PROXY: "true"/"1" trusts every hop; a number trusts that many hops; anything else is
// passed to Fastify as an address list ("127.0.0.1,10.0.0.0/8").
function trustProxy(raw: string | undefined): boolean | string {
  if (raw === undefined || raw.trim() === '') return false;
  const value = raw.trim();
  if (['0', 'false', 'no', 'off'].includes(value.toLowerCase())) return false;
  if (['1', 'true', 'yes', 'on'].includes(value.toLowerCase())) return true;
  return value;
}

const OIDC_VARIABLES = ['REG_OIDC_ISSUER', 'REG_OIDC_AUDIENCE', 'REG_OIDC_JWKS_URL'] as const;
const AGENT_PREFIX = /^[^\s\p{Cc}\p{Cf}]{1,64}$/u;

// Goes further than SPEC.md ("if any is missing it is disabled"): a half-set configuration is a typo
// that would silently turn identity-provider logins off, so it stops the start instead.
function oidcConfig(env: NodeJS.ProcessEnv): OidcConfig | null {
  const [issuer, audience, jwksUrl] = OIDC_VARIABLES.map((name) => env[name]?.trim() || '') as [string, string, string];
  const agentPrefix = env.REG_OIDC_AGENT_PREFIX ?? '';
  const missing = OIDC_VARIABLES.filter((name) => !env[name]?.trim());
  if (missing.length === OIDC_VARIABLES.length && agentPrefix === '') return null;
  if (missing.length > 0) {
    const why = missing.length === OIDC_VARIABLES.length ? 'REG_OIDC_AGENT_PREFIX is set' : 'OIDC is only partly configured';
    throw new ConfigError(`${why}: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing (set all three, or none)`);
  }
  if (agentPrefix === '') return { issuer, audience, jwksUrl };
  if (!AGENT_PREFIX.test(agentPrefix)) {
    throw new ConfigError('REG_OIDC_AGENT_PREFIX must be 1 to 64 characters without whitespace, control or format characters');
  }
  return { issuer, audience, jwksUrl, agentPrefix };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.REG_DATABASE_URL?.trim() || 'sqlite:./data/registry.db';
  if (!/^(sqlite:|postgres:\/\/|postgresql:\/\/)/.test(databaseUrl)) {
    throw new ConfigError('REG_DATABASE_URL must start with sqlite: or postgres://');
  }
  const oidc = oidcConfig(env);
  const logLevel = env.REG_LOG_LEVEL?.trim() || 'info';
  if (!LOG_LEVELS.has(logLevel)) throw new ConfigError(`REG_LOG_LEVEL must be one of ${[...LOG_LEVELS].join(', ')}`);

  return {
    port: integer(env, 'REG_PORT', 3000, 0, 65535),
    host: env.REG_HOST?.trim() || '127.0.0.1',
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
  };
}
