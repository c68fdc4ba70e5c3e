// What the fuzz properties share: run counts and seeds, the backends they run on, the checks every
// fuzzed response must pass (no 500, the documented error envelope), a fingerprint of every stored row,
// and a seeded world of agents, units and skills to aim requests at.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { TestContext } from 'node:test';
import type fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { AppOptions } from '../../src/app.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import type { Store } from '../../src/store/store.js';
import { register, skillMd, testApp, testConfig, unitBody, type TestApp } from '../helpers/app.js';
import { openPostgres, postgresUrl } from '../helpers/backends.js';
import type { AuthTarget, Method } from './arbitraries.js';

// ---- runs, seed and backends ---------------------------------------------------------------------

function envInt(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, got ${raw}`);
  return value;
}

/** Runs per property on SQLite (REG_FUZZ_RUNS, default 150). */
export const RUNS = Math.max(1, envInt('REG_FUZZ_RUNS', 150));
/**
 * Runs per property on PostgreSQL: REG_FUZZ_PG_RUNS; else REG_FUZZ_RUNS when it was set (so `npm run fuzz`
 * runs both at full count); else a third of the default, at least 30, so `npm test` stays quick.
 */
export const PG_RUNS = Math.max(
  1,
  envInt('REG_FUZZ_PG_RUNS', process.env.REG_FUZZ_RUNS?.trim() ? RUNS : Math.max(30, Math.ceil(RUNS / 3))),
);
export const SEED = envInt('REG_FUZZ_SEED', 20_261_122);
const REPLAY_PATH = process.env.REG_FUZZ_PATH?.trim() || undefined;
/** Property 5 starts over with a fresh app after this many runs, so long fuzz runs stay small. */
export const MODEL_RESET_EVERY = Math.max(1, envInt('REG_FUZZ_RESET_EVERY', 250));

export function fcParams<T>(runs: number): fc.Parameters<T> {
  return { numRuns: runs, seed: SEED, includeErrorInReport: true, ...(REPLAY_PATH ? { path: REPLAY_PATH } : {}) };
}

export function announce(t: TestContext, runs: number): void {
  t.diagnostic(
    `fast-check seed=${SEED} runs=${runs}` +
      (REPLAY_PATH ? ` path=${REPLAY_PATH}` : '') +
      ' (reproduce with REG_FUZZ_SEED, REG_FUZZ_RUNS / REG_FUZZ_PG_RUNS, REG_FUZZ_PATH)',
  );
}

export interface FuzzBackend {
  name: 'sqlite' | 'postgres';
  runs: number;
  /** Why the backend's properties are skipped, or false. */
  skip: string | false;
  /** A new, empty store (PostgreSQL: a fresh schema, dropped when the store closes). */
  open(): Promise<Store>;
}

/** SQLite in memory always; PostgreSQL when REG_TEST_DATABASE_URL is set, else reported as skipped. */
export function fuzzBackends(): FuzzBackend[] {
  const url = postgresUrl();
  return [
    { name: 'sqlite', runs: RUNS, skip: false, open: async () => openSqliteStore('sqlite::memory:') },
    {
      name: 'postgres',
      runs: PG_RUNS,
      skip: url ? false : 'REG_TEST_DATABASE_URL is not set',
      open: () => openPostgres(url!),
    },
  ];
}

// ---- what the API documents an error looks like ---------------------------------------------------

const CONTRACT_CODES: Readonly<Record<number, string>> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  503: 'UNAVAILABLE',
};

export type Res = LightMyRequestResponse;

export interface Sent {
  method: Method;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

export interface PageBody {
  data: Array<Record<string, unknown>>;
  total: number;
  capped?: boolean;
  offset: number;
  limit: number;
}

export function clip(text: string, max = 300): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}

export function describeRequest(s: Sent): string {
  const headers = Object.fromEntries(Object.entries(s.headers).map(([k, v]) => [k, clip(v, 120)]));
  const body =
    s.payload === undefined
      ? ''
      : ` body=${Buffer.isBuffer(s.payload) ? `<${s.payload.length} bytes: ${clip(s.payload.toString('hex'), 200)}>` : JSON.stringify(clip(s.payload))}`;
  return `${s.method} ${clip(s.url, 300)} headers=${JSON.stringify(headers)}${body}`;
}

export function describeExchange(s: Sent, res: Res): string {
  return `\n  request:  ${describeRequest(s)}\n  response: ${res.statusCode} ${clip(res.body, 400)}`;
}

/** How often each status was answered to fuzzed requests, per property (printed as a diagnostic). */
export const seen = new Map<number, number>();

export function histogram(): string {
  const text = [...seen.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status}×${n}`)
    .join(' ');
  seen.clear();
  return text;
}

export function send(app: FastifyInstance, s: Sent): Promise<Res> {
  return app.inject({
    method: s.method,
    url: s.url,
    headers: s.headers,
    ...(s.payload !== undefined ? { payload: s.payload } : {}),
  });
}

/**
 * Never a 500; every error is exactly `{ error: { code, message } }` with the code the error table gives its
 * status; a 503 says when to retry.
 */
export function checkResponse(s: Sent, res: Res): void {
  const status = res.statusCode;
  if (status >= 500 && status !== 503) throw new Error(`server error ${status}${describeExchange(s, res)}`);
  if (status < 400) return;
  const expected = CONTRACT_CODES[status];
  if (expected === undefined) throw new Error(`status ${status} is not in the error table${describeExchange(s, res)}`);
  // A 503 is an instance saying it cannot answer now: when to ask again is part of the answer.
  if (status === 503 && !/^[1-9][0-9]*$/.test(String(res.headers['retry-after'] ?? '')))
    throw new Error(`503 without a Retry-After in seconds${describeExchange(s, res)}`);
  if (s.method === 'HEAD') return; // no body to check
  const type = String(res.headers['content-type'] ?? '');
  if (!type.startsWith('application/json'))
    throw new Error(`error with content-type ${JSON.stringify(type)}${describeExchange(s, res)}`);
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    throw new Error(`error body is not JSON${describeExchange(s, res)}`);
  }
  const envelope = body as { error?: { code?: unknown; message?: unknown } };
  const ok =
    body !== null &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    Object.keys(body).length === 1 &&
    envelope.error !== null &&
    typeof envelope.error === 'object' &&
    Object.keys(envelope.error).sort().join(',') === 'code,message' &&
    typeof envelope.error.code === 'string' &&
    typeof envelope.error.message === 'string' &&
    envelope.error.message.length > 0;
  if (!ok) throw new Error(`error body is not the envelope { error: { code, message } }${describeExchange(s, res)}`);
  if (envelope.error!.code !== expected) {
    throw new Error(
      `status ${status} carries code ${String(envelope.error!.code)}, the error table says ${expected}${describeExchange(s, res)}`,
    );
  }
  if (status === 401 && res.headers['www-authenticate'] === undefined) {
    throw new Error(`401 without WWW-Authenticate${describeExchange(s, res)}`);
  }
}

export function expectStatus(s: Sent, res: Res, allowed: readonly number[], why: string): void {
  if (!allowed.includes(res.statusCode)) {
    throw new Error(`expected ${allowed.join(' or ')} (${why}), got ${res.statusCode}${describeExchange(s, res)}`);
  }
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
export const json = { 'content-type': 'application/json' };

// ---- a fingerprint of every stored row -----------------------------------------------------------

interface Sqlish {
  prepare(sql: string): {
    all(...params: unknown[]): unknown[];
    pluck(on?: boolean): { all(...params: unknown[]): unknown[] };
  };
}

interface Pgish {
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;
}

const digestOf = (rows: unknown) => createHash('sha256').update(JSON.stringify(rows)).digest('hex').slice(0, 16);

let warnedNoDb = false;

/** Per-table digests of the SQLite store, read through its (private) connection. */
function sqliteDigest(db: Sqlish): Record<string, string> {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .pluck()
    .all() as string[];
  const out: Record<string, string> = {};
  for (const name of tables) {
    const rows = db.prepare(`SELECT * FROM "${name.replaceAll('"', '""')}"`).all();
    out[name] = `${rows.length}:${digestOf(rows)}`;
  }
  return out;
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Per-table digests of a PostgreSQL store's schema, read through its (private) pool: every row of every
 * table as JSON text, sorted bytewise, so the digest does not depend on physical row order. Sequences are
 * left out: PostgreSQL advances them even for a rolled-back insert, which changes no row.
 */
async function postgresDigest(pool: Pgish, schema: string): Promise<Record<string, string>> {
  const tables = (
    await pool.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') ORDER BY c.relname COLLATE "C"`,
      [schema],
    )
  ).rows.map((row) => row.name);
  if (tables.length === 0) throw new Error(`fuzz: schema ${schema} has no tables to fingerprint`);
  const perTable = tables.map(
    (name, i) =>
      `SELECT ${i} AS i, count(*)::int AS n, coalesce(string_agg(r, E'\\n' ORDER BY r COLLATE "C"), '') AS rows
       FROM (SELECT to_jsonb(t)::text AS r FROM ${quoteIdent(schema)}.${quoteIdent(name)} t) x`,
  );
  const result = await pool.query<{ i: number; n: number; rows: string }>(`${perTable.join(' UNION ALL ')} ORDER BY i`);
  const out: Record<string, string> = {};
  for (const row of result.rows) out[tables[row.i]!] = `${row.n}:${digestOf(row.rows)}`;
  return out;
}

/** Per-table digests of either store; null (with one warning) when its connection is not reachable. */
export async function storeDigest(store: Store): Promise<Record<string, string> | null> {
  const db = (store as unknown as { db?: Sqlish }).db;
  if (db && typeof db.prepare === 'function') return sqliteDigest(db);
  const { pool, schema } = store as unknown as { pool?: Pgish; schema?: string };
  if (pool && typeof pool.query === 'function' && typeof schema === 'string') return postgresDigest(pool, schema);
  if (!warnedNoDb) {
    warnedNoDb = true;
    console.warn('fuzz: the store has no reachable db handle or pool; the data fingerprint uses the HTTP API only');
  }
  return null;
}

// ---- the app under test --------------------------------------------------------------------------

export interface Agent {
  id: string;
  key: string;
  prefix: string;
}

export interface World {
  t: TestApp;
  app: FastifyInstance;
  writer: Agent;
  reader: Agent;
  admin: Agent;
  other: Agent;
  revoker: Agent;
  revokedKey: string;
  /** Live unit of `writer`; replaced when a fuzzed DELETE removes it. */
  unit: string;
  /** Live unit of `other`. */
  foreignUnit: string;
  deletedUnits: string[];
  liveUnits: Map<string, string>; // id -> owner
  skill: string;
  privateSkill: string;
  /** Every agent id known to exist. */
  agents: Set<string>;
  fingerprint: string;
}

/** Everything a refused request must leave alone: every table, list totals, reputation profiles, and which keys work. */
export async function takeFingerprint(w: World): Promise<string> {
  const http: Record<string, unknown> = {};
  const units = await send(w.app, { method: 'GET', url: '/v1/knowledge?limit=1', headers: {} });
  http.units = units.json().total;
  const skills = await send(w.app, { method: 'GET', url: '/v1/skills?limit=1', headers: bearer(w.admin.key) });
  http.skills = skills.json().total;
  for (const a of [w.writer, w.reader, w.admin, w.other, w.revoker]) {
    const rep = await send(w.app, { method: 'GET', url: `/v1/reputation/${a.id}`, headers: {} });
    const { history, ...totals } = rep.json().data as { history: unknown[] };
    http[`rep:${a.id}`] = { ...totals, history: history.length };
    const probe = await send(w.app, { method: 'GET', url: '/v1/skills?limit=1', headers: bearer(a.key) });
    http[`key:${a.id}`] = probe.headers['www-authenticate'] === undefined ? 'works' : 'refused';
  }
  return JSON.stringify({ db: await storeDigest(w.t.store), http });
}

/** What changed between two fingerprints, keyed by `table <name>` or the HTTP probe's name. */
export function fingerprintChanges(before: string, after: string): Map<string, string> {
  const a = JSON.parse(before) as { db: Record<string, string> | null; http: Record<string, unknown> };
  const b = JSON.parse(after) as typeof a;
  const changed = new Map<string, string>();
  for (const k of new Set([...Object.keys(a.db ?? {}), ...Object.keys(b.db ?? {})])) {
    if (a.db?.[k] !== b.db?.[k]) changed.set(`table ${k}`, `${a.db?.[k]} -> ${b.db?.[k]}`);
  }
  for (const k of new Set([...Object.keys(a.http), ...Object.keys(b.http)])) {
    if (JSON.stringify(a.http[k]) !== JSON.stringify(b.http[k]))
      changed.set(k, `${JSON.stringify(a.http[k])} -> ${JSON.stringify(b.http[k])}`);
  }
  return changed;
}

export function describeChanges(changes: Map<string, string>): string {
  return [...changes].map(([k, v]) => `${k}: ${v}`).join('; ');
}

const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort().join(',');

export function checkNoPollution(s: Sent): void {
  const probe = {} as Record<string, unknown>;
  const names = Object.getOwnPropertyNames(Object.prototype).sort().join(',');
  if (
    names !== PROTOTYPE_KEYS ||
    probe.admin !== undefined ||
    probe.polluted !== undefined ||
    probe.scopes !== undefined
  ) {
    throw new Error(`Object.prototype was polluted\n  request: ${describeRequest(s)}`);
  }
}

/**
 * Sends a request and applies the checks every fuzzed request shares: no 500, the error envelope, no
 * prototype pollution, and no data change unless the request succeeded.
 */
export async function guarded(w: World, s: Sent): Promise<Res> {
  const res = await send(w.app, s);
  seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
  checkResponse(s, res);
  checkNoPollution(s);
  const after = await takeFingerprint(w);
  const before = w.fingerprint;
  w.fingerprint = after; // keep going from the new state, so later runs (and shrinking) stay meaningful
  if (res.statusCode >= 400 && after !== before) {
    throw new Error(
      `a refused request (${res.statusCode}) changed stored data: ${describeChanges(fingerprintChanges(before, after))}${describeExchange(s, res)}`,
    );
  }
  return res;
}

async function agent(app: FastifyInstance, id: string, scopes: string[]): Promise<Agent> {
  const key = await register(app, id, scopes);
  return { id, key, prefix: key.slice(0, 8) };
}

export async function newUnit(app: FastifyInstance, key: string, title: string): Promise<string> {
  const res = await send(app, {
    method: 'POST',
    url: '/v1/knowledge',
    headers: { ...bearer(key), ...json },
    payload: JSON.stringify(unitBody({ title })),
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data.id as string;
}

async function newSkill(
  app: FastifyInstance,
  key: string,
  name: string,
  visibility: 'public' | 'private',
): Promise<string> {
  const res = await send(app, {
    method: 'POST',
    url: '/v1/skills',
    headers: { ...bearer(key), ...json },
    payload: JSON.stringify({ skill_md_content: skillMd({ name }), visibility }),
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data.id as string;
}

/** Agents with keys (one revoked), live and deleted units, public and private skills, and one verdict. */
export async function buildWorld(store: Store, options: Partial<AppOptions> = {}): Promise<World> {
  const t = await testApp(store, { config: testConfig({ openAdminRegistration: true }), ...options });
  const app = t.app;
  const writer = await agent(app, 'writer', ['read', 'write']);
  const reader = await agent(app, 'reader', ['read']);
  const admin = await agent(app, 'admin', ['read', 'write', 'admin']);
  const other = await agent(app, 'other', ['read', 'write']);
  const revoker = await agent(app, 'revoker', ['read', 'write']);
  const revokedKey = await register(app, 'writer', ['read'], 'free', writer.key);
  const revoked = await send(app, {
    method: 'POST',
    url: '/v1/auth/revoke',
    headers: { ...bearer(writer.key), ...json },
    payload: JSON.stringify({ key_prefix: revokedKey.slice(0, 8) }),
  });
  assert.equal(revoked.statusCode, 200, revoked.body);

  const unit = await newUnit(app, writer.key, 'Retry idempotent requests with exponential backoff');
  const foreignUnit = await newUnit(app, other.key, 'Circuit breakers stop retry storms');
  const doomed = await newUnit(app, writer.key, 'A unit that is deleted at once');
  const deleted = await send(app, { method: 'DELETE', url: `/v1/knowledge/${doomed}`, headers: bearer(writer.key) });
  assert.equal(deleted.statusCode, 200, deleted.body);
  const skill = await newSkill(app, writer.key, 'pdf-tools', 'public');
  const privateSkill = await newSkill(app, writer.key, 'secret-tools', 'private');
  await newSkill(app, other.key, 'csv-tools', 'public');
  // A verdict from the reader, so validations exist to be (wrongly) touched.
  const verdict = await send(app, {
    method: 'POST',
    url: `/v1/knowledge/${foreignUnit}/validate`,
    headers: { ...bearer(reader.key), ...json },
    payload: '{"valid":true}',
  });
  assert.equal(verdict.statusCode, 200, verdict.body);

  const w: World = {
    t,
    app,
    writer,
    reader,
    admin,
    other,
    revoker,
    revokedKey,
    unit,
    foreignUnit,
    deletedUnits: [doomed],
    liveUnits: new Map([
      [unit, 'writer'],
      [foreignUnit, 'other'],
    ]),
    skill,
    privateSkill,
    agents: new Set(['writer', 'reader', 'admin', 'other', 'revoker']),
    fingerprint: '',
  };
  w.fingerprint = await takeFingerprint(w);
  return w;
}

// ---- requests a credential is aimed at ------------------------------------------------------------

export interface Aimed {
  s: Sent;
  /** The status an anonymous caller gets. */
  anonymous: number;
}

/** One request per AuthTarget, carrying `authorization`; reads answer anonymous callers, writes refuse them. */
export function aimedRequest(w: World, target: AuthTarget, authorization: string): Aimed {
  const body = (value: unknown) => ({ headers: { authorization, ...json }, payload: JSON.stringify(value) });
  const requests: Record<
    AuthTarget,
    { method: Method; url: string; headers?: Record<string, string>; payload?: string; anonymous: number }
  > = {
    listUnits: { method: 'GET', url: '/v1/knowledge?limit=1', anonymous: 200 },
    listSkills: { method: 'GET', url: '/v1/skills?limit=100', anonymous: 200 },
    getUnit: { method: 'GET', url: `/v1/knowledge/${w.unit}`, anonymous: 200 },
    getPrivateSkill: { method: 'GET', url: `/v1/skills/${w.privateSkill}`, anonymous: 404 },
    reputation: { method: 'GET', url: '/v1/reputation/writer', anonymous: 200 },
    postUnit: { method: 'POST', url: '/v1/knowledge', ...body(unitBody()), anonymous: 401 },
    postSkill: {
      method: 'POST',
      url: '/v1/skills',
      ...body({ skill_md_content: skillMd(), visibility: 'public' }),
      anonymous: 401,
    },
    validate: {
      method: 'POST',
      url: `/v1/knowledge/${w.foreignUnit}/validate`,
      ...body({ valid: false }),
      anonymous: 401,
    },
    delete: { method: 'DELETE', url: `/v1/knowledge/${w.unit}`, anonymous: 401 },
    export: { method: 'GET', url: '/v1/export/writer', anonymous: 401 },
    revoke: { method: 'POST', url: '/v1/auth/revoke', ...body({ key_prefix: w.writer.prefix }), anonymous: 401 },
    registerExisting: {
      method: 'POST',
      url: '/v1/auth/register',
      ...body({ agent_id: 'writer', scopes: ['read'], tier: 'free' }),
      anonymous: 409,
    },
    registerAdmin: {
      method: 'POST',
      url: '/v1/auth/register',
      ...body({ agent_id: 'admin', scopes: ['admin'], tier: 'enterprise' }),
      anonymous: 409,
    },
  };
  const q = requests[target];
  const s: Sent = {
    method: q.method,
    url: q.url,
    headers: q.headers ?? { authorization },
    ...(q.payload !== undefined ? { payload: q.payload } : {}),
  };
  return { s, anonymous: q.anonymous };
}

/** A refused credential: the anonymous answer, the invalid_token challenge, and only public skills. */
export function checkTreatedAsAnonymous(target: AuthTarget, aimed: Aimed, res: Res, anonymousSkills: number): void {
  const { s } = aimed;
  expectStatus(s, res, [aimed.anonymous], `${target} as an anonymous caller`);
  const challenge = String(res.headers['www-authenticate'] ?? '');
  if (!challenge.includes('error="invalid_token"')) {
    throw new Error(
      `a refused credential without WWW-Authenticate: Bearer error="invalid_token" (got ${JSON.stringify(challenge)})${describeExchange(s, res)}`,
    );
  }
  if (target === 'listSkills') {
    const page = res.json() as PageBody;
    assert.equal(
      page.total,
      anonymousSkills,
      `a refused credential saw a different skill list${describeExchange(s, res)}`,
    );
    for (const item of page.data)
      assert.equal(item.visibility, 'public', `private skill shown${describeExchange(s, res)}`);
  }
}
