// Every REG_* variable the service reads, declared once: its type and bounds (a TypeBox schema), its
// default, and the line that documents it. config.ts reads them (read.ts) and shapes the Config; the
// README's configuration table is generated from this list (npm run docs:config).
import { Type, type Static, type TSchema } from 'typebox';
import { KEY_TIERS, type KeyTier } from '../domain/model.js';

export interface Variable<S extends TSchema = TSchema> {
  schema: S;
  /** The value when unset or blank (already of the schema's type); none: the variable is optional. */
  default?: string | number | boolean;
  /** The default as the documentation shows it, when it is computed or not a plain value. */
  shownDefault?: string;
  /** What a valid value looks like, for the error message (integers and choices say it themselves). */
  accepts?: string;
  /** Read as written: surrounding whitespace is refused, not trimmed. */
  untrimmed?: boolean;
  /** One line of documentation (Markdown). */
  doc: string;
}

const integer = (minimum: number, maximum: number) => Type.Integer({ minimum, maximum });
const choice = (values: readonly string[]) => Type.Enum([...values]);
const text = (pattern: string, maxLength = 2048) => Type.String({ pattern, maxLength });
/** Any non-blank text up to a bound (URLs and names checked further where they are used). */
const ANY = text('^\\S(.*\\S)?$');
const FLAG = Type.Boolean();
const RATE = integer(1, 10_000_000);

const TIER_DEFAULTS: Record<KeyTier, { rate: number; quota: string; reports: number }> = {
  free: { rate: 600, quota: 'units=10000,skills=1000,bytes=100MB', reports: 20 },
  pro: { rate: 3000, quota: 'units=100000,skills=10000,bytes=1GB', reports: 100 },
  enterprise: { rate: 15000, quota: 'units=1000000,skills=100000,bytes=10GB', reports: 500 },
};

/** A quota: any of units=, skills=, bytes= (with KB, MB, GB, TB), each a number or `unlimited`. */
const QUOTA = text(
  '^\\s*(units|skills|bytes)\\s*=\\s*(unlimited|\\d{1,15})\\s*([kKmMgGtT]?[bB])?\\s*(,\\s*(units|skills|bytes)\\s*=\\s*(unlimited|\\d{1,15})\\s*([kKmMgGtT]?[bB])?\\s*)*$',
  200,
);

type Tier = Uppercase<KeyTier>;
type TierVariables = Record<`REG_RATE_LIMIT_${Tier}`, { schema: typeof RATE; default: number; doc: string }> &
  Record<`REG_REPORTS_PER_DAY_${Tier}`, { schema: ReturnType<typeof integer>; default: number; doc: string }> &
  Record<`REG_QUOTA_${Tier}`, { schema: typeof QUOTA; shownDefault: string; accepts: string; doc: string }>;

function tierVariables(): TierVariables {
  const upper = (tier: KeyTier) => tier.toUpperCase() as Tier;
  const out = {} as TierVariables;
  for (const tier of KEY_TIERS) {
    out[`REG_RATE_LIMIT_${upper(tier)}`] = {
      schema: RATE,
      default: TIER_DEFAULTS[tier].rate,
      doc: `requests per minute per agent at the \`${tier}\` tier`,
    };
  }
  for (const tier of KEY_TIERS) {
    out[`REG_REPORTS_PER_DAY_${upper(tier)}`] = {
      schema: integer(0, 1_000_000),
      default: TIER_DEFAULTS[tier].reports,
      doc: `reports an agent at the \`${tier}\` tier may file per day (UTC); beyond, 429 until the next day`,
    };
  }
  for (const tier of KEY_TIERS) {
    out[`REG_QUOTA_${upper(tier)}`] = {
      schema: QUOTA,
      shownDefault: `\`${TIER_DEFAULTS[tier].quota}\``,
      accepts: 'like "units=10000,skills=1000,bytes=100MB" (any of the three; "unlimited" for no bound)',
      doc: `storage an agent at the \`${tier}\` tier may hold (any subset of the three, \`unlimited\` for no bound); a write over it is a 403 that names the quota`,
    };
  }
  return out;
}

/** The default quota text of a tier (config.ts parses it like a set value). */
export const defaultQuota = (tier: KeyTier): string => TIER_DEFAULTS[tier].quota;

export const VARIABLES = {
  REG_PORT: { schema: integer(0, 65535), default: 3000, doc: 'listening port' },
  REG_HOST: { schema: ANY, default: '127.0.0.1', doc: 'listening address (`0.0.0.0` for deployment)' },
  REG_ALLOWED_HOSTS: {
    schema: text('^(\\*|\\s*\\[?[A-Za-z0-9.:_-]{1,253}\\]?\\s*(,\\s*\\[?[A-Za-z0-9.:_-]{1,253}\\]?\\s*)*)$', 4096),
    shownDefault: 'the loopback names when `REG_HOST` is loopback, else any',
    accepts: '* or host names separated by commas (no ports)',
    doc: 'host names the service answers to (`*`: any); a request naming another host is refused (DNS rebinding). `/healthz` and `/readyz` answer any',
  },
  REG_DATABASE_URL: {
    schema: text('^(sqlite:|postgres://|postgresql://)'),
    default: 'sqlite:./data/registry.db',
    accepts: 'a URL starting with sqlite: or postgres://',
    doc: '`sqlite:<path>`, `sqlite::memory:`, or `postgres://user:pass@host:5432/db`',
  },
  REG_DATABASE_POOL_MAX: {
    schema: integer(1, 1000),
    default: 10,
    doc: "PostgreSQL connections per instance; instances × this must stay below the server's `max_connections` (see [docs/scale-out.md](docs/scale-out.md))",
  },
  REG_SQLITE_READ_WORKERS: {
    schema: integer(0, 64),
    default: 2,
    doc: 'SQLite only: worker threads that run lists, each with a read-only connection, so a slow list never holds up other requests (0: all on the main thread)',
  },
  REG_REDIS_URL: {
    schema: text('^rediss?://'),
    accepts: 'a URL starting with redis:// or rediss://',
    doc: '`redis://host:6379`: rate-limit counters live in Redis, shared by every instance (see [docs/scale-out.md](docs/scale-out.md))',
  },
  REG_REDIS_KEY_PREFIX: {
    schema: text('^\\S{1,64}$', 64),
    default: 'registry:',
    accepts: '1 to 64 characters without spaces',
    doc: 'prefix of the Redis keys, to share one Redis between registries',
  },
  REG_TRUST_PROXY: {
    schema: text('^(\\d{1,2}|true|false|yes|no|on|off|[0-9A-Fa-f.:/]+(\\s*,\\s*[0-9A-Fa-f.:/]+)*)$', 4096),
    accepts: 'a hop count from 0 to 32, true, or a list of proxy addresses/CIDRs',
    doc: 'how many proxies stand in front (`1`, `2`…; `true` means 1), or a list of proxy addresses/CIDRs: the client address is then the one the outermost trusted proxy saw in `X-Forwarded-For`. Never "every hop": the leftmost entry is whatever the client wrote',
  },
  REG_RATE_LIMIT_ANONYMOUS: { schema: RATE, default: 60, doc: 'requests per minute per client address without a key' },
  ...tierVariables(),
  REG_REGISTER_LIMIT: {
    schema: RATE,
    doc: 'registrations per client address per hour (off by default: registration is open; see [docs/security.md](docs/security.md))',
  },
  REG_OPEN_ADMIN_REGISTRATION: {
    schema: FLAG,
    default: false,
    doc: 'when set (`1`, `true`), anyone may register a key with the `admin` scope; for closed test setups only',
  },
  REG_SELF_SERVICE_TIERS: {
    schema: text(`^\\s*(${KEY_TIERS.join('|')})\\s*(,\\s*(${KEY_TIERS.join('|')})\\s*)*$`, 200),
    default: KEY_TIERS.join(','),
    accepts: `tiers from ${KEY_TIERS.join(', ')}, separated by commas`,
    doc: 'the tiers anyone may register with; a tier outside the list is granted by an admin only (403 otherwise). Public deployments set `free`',
  },
  REG_SKILL_MAX_VERSIONS: {
    schema: integer(1, 1_000_000),
    default: 1000,
    doc: 'versions one skill may hold; a publication beyond is refused',
  },
  REG_SECRET: {
    schema: Type.String({ minLength: 32, maxLength: 4096 }),
    accepts: 'at least 32 characters of random text (e.g. openssl rand -base64 48)',
    doc: 'at least 32 random characters: seals the answers kept for `Idempotency-Key` replays. Unset, SQLite keeps a random one in `<database>.secret` (mode 0600) and PostgreSQL uses one per process (set the same `REG_SECRET` on every instance)',
  },
  REG_OIDC_ISSUER: {
    schema: ANY,
    doc: 'with `REG_OIDC_AUDIENCE` and `REG_OIDC_JWKS_URL`: bearer JWTs from this identity provider are accepted too; one or two of the three set: OIDC is off, with a warning at start-up and in `/readyz` (see [docs/oidc.md](docs/oidc.md))',
  },
  REG_OIDC_AUDIENCE: { schema: ANY, doc: "the audience the identity provider's tokens must name" },
  REG_OIDC_JWKS_URL: { schema: ANY, doc: 'where the identity provider publishes its signing keys' },
  REG_OIDC_AGENT_PREFIX: {
    schema: Type.String({ pattern: '^[^\\s\\p{Cc}\\p{Cf}]{1,64}$' }),
    untrimmed: true,
    accepts: '1 to 64 characters without whitespace, control or format characters',
    doc: 'with OIDC on: token agent ids become `<prefix><claim>`, and key registration refuses ids starting with it',
  },
  REG_EMBEDDINGS: {
    schema: choice(['builtin', 'none', 'off', 'openai']),
    default: 'none',
    doc: 'the embedding model of search: `none` (lexical ranking only), `builtin` (Universal Sentence Encoder lite, shipped in `node_modules`, offline; measured: +0.008 keyword MRR@10, none on task queries, search p99 95 ms instead of 12 ms while it embeds 6-20 items/s on two cores), or `openai` (any OpenAI-compatible `/v1/embeddings` endpoint: Ollama, vLLM, TEI, hosted APIs; see [docs/search.md](docs/search.md#embeddings))',
  },
  REG_EMBEDDINGS_URL: {
    schema: text('^https?://'),
    accepts: 'an http:// or https:// URL',
    doc: "with `openai`, required: the endpoint's base URL (e.g. `http://127.0.0.1:11434/v1`)",
  },
  REG_EMBEDDINGS_MODEL: { schema: ANY, doc: 'with `openai`, required: the model name' },
  REG_EMBEDDINGS_API_KEY: { schema: ANY, doc: 'with `openai`, optional: a bearer key (never logged)' },
  REG_EMBEDDINGS_DIMENSIONS: {
    schema: integer(1, 8192),
    doc: 'with `openai`, optional: the vector size (learned from the first answer otherwise, then fixed)',
  },
  REG_SEARCH_MAX_TERMS: {
    schema: integer(1_000, 1_000_000_000),
    shownDefault: "a quarter of the heap, at ~1 KiB a word (about a million with Node's default 4 GiB heap)",
    doc: "distinct words each kind's search index (skills, units) holds at most; beyond, new words are not indexed (known ones still are) and `/readyz` says so",
  },
  REG_SEARCH_AGENT_TERMS: {
    schema: integer(100, 1_000_000_000),
    shownDefault: 'a quarter of `REG_SEARCH_MAX_TERMS`',
    doc: "distinct words one agent's items may bring into an index; beyond, its items are indexed by known words only",
  },
  REG_SEARCH_SNAPSHOT_DIR: {
    schema: ANY,
    shownDefault: '`<database file>.search` with SQLite; unset with PostgreSQL',
    doc: 'where the search index is saved, so a restart loads it in seconds instead of rebuilding it; `none` turns it off; with PostgreSQL, a local directory per instance (see [docs/search.md](docs/search.md#snapshots-and-restarts))',
  },
  REG_SEARCH_START_WAIT_S: {
    schema: integer(0, 600),
    default: 20,
    doc: 'while the search index loads at start-up, how long a search waits for it before it is refused with 503 (`0`: refused at once); `/readyz` says not ready meanwhile',
  },
  REG_SEARCH_WORKERS: {
    schema: integer(0, 64),
    shownDefault: 'the cores but one, at least 1, at most 4',
    doc: 'worker threads that score long search queries (20,000 postings or more: common words at a large scale) while the event loop serves other requests; `0`: every query is scored on the event loop',
  },
  REG_METRICS: {
    schema: text('^(off|admin|port:\\d{1,5})$', 16),
    default: 'off',
    accepts: 'off, admin, or port:<number> (e.g. port:9464)',
    doc: 'Prometheus metrics: `off`; `admin` (`GET /metrics` with an admin key); or `port:9464` (served without a key on that port of `REG_HOST`, for a network only the scraper reaches; see [docs/operations.md](docs/operations.md))',
  },
  REG_CORS_ORIGINS: {
    schema: text('^(\\*|\\s*https?://[^\\s,/]+\\s*(,\\s*https?://[^\\s,/]+\\s*)*)$', 4096),
    accepts: '* or origins like https://app.example.org separated by commas',
    doc: 'web origins whose pages may call the API from a browser (CORS), or `*`; unset: none (CORS off)',
  },
  REG_LOG_LEVEL: {
    schema: choice(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    default: 'info',
    doc: 'the least severe level logged (JSON lines on stdout)',
  },
} satisfies Record<string, Variable>;

type Declared = typeof VARIABLES;
/** A declared variable's name: a typo is a compile error. */
export type VariableName = keyof Declared;

/**
 * Every variable's value as read, typed from its schema: a variable with a default always has a value,
 * one without may be undefined. Adding a variable to the list above is the only edit its type needs.
 */
export type Settings = {
  [K in VariableName]: Declared[K] extends { default: unknown }
    ? Static<Declared[K]['schema']>
    : Static<Declared[K]['schema']> | undefined;
};
