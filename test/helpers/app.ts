// Builders for HTTP tests: an app over a fresh store with a fake clock, and small request helpers.
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppOptions } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config/index.js';
import type { Store } from '../../src/store/store.js';

/** Rate limits are out of the way unless a test sets them. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const roomy = { anonymous: 1_000_000, free: 1_000_000, pro: 1_000_000, enterprise: 1_000_000 };
  // Lexical search only: the built-in embedding model costs seconds per start and tests rank exact words.
  return {
    ...loadConfig({ REG_DATABASE_URL: 'sqlite::memory:', REG_EMBEDDINGS: 'none' }),
    rateLimits: roomy,
    ...overrides,
  };
}

/** A clock that starts at a fixed instant and moves 1 ms per reading, so every timestamp differs. */
export function fakeClock(start = Date.parse('2026-11-22T10:00:00.000Z')): () => Date {
  let now = start;
  return () => new Date(now++);
}

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  close(): Promise<void>;
}

export async function testApp(store: Store, options: Partial<AppOptions> = {}): Promise<TestApp> {
  // Shedding on event-loop lag is off unless a test asks for it: a busy test machine must not fail a test.
  const limits = { maxEventLoopDelayMs: 0, ...options.limits };
  const app = await buildApp({
    config: testConfig(),
    store,
    clock: fakeClock(),
    awaitSearchIndex: true,
    ...options,
    limits,
  });
  return {
    app,
    store,
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}

export type Res = LightMyRequestResponse & { body: string };

export function call(
  app: FastifyInstance,
  method: InjectOptions['method'],
  url: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Res> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  const inject: InjectOptions = { method, url, headers };
  if (options.body !== undefined) inject.payload = options.body as InjectOptions['payload'];
  return app.inject(inject) as Promise<Res>;
}

export async function register(
  app: FastifyInstance,
  agentId: string,
  scopes: string[] = ['read', 'write'],
  tier = 'free',
  key?: string,
): Promise<string> {
  const res = await call(app, 'POST', '/v1/auth/register', { body: { agent_id: agentId, scopes, tier }, key });
  if (res.statusCode !== 201) throw new Error(`register ${agentId}: ${res.statusCode} ${res.body}`);
  return res.json().data.api_key as string;
}

export function unitBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Retry idempotent requests with exponential backoff',
    type: 'pattern',
    domain: 'web-development',
    content: {
      description: 'When a downstream call fails with a transient error, retry it with exponential backoff and jitter.',
      examples: ['await retry(fetchUser, { attempts: 5, base: 100 })'],
    },
    metadata: { source: 'https://example.org/backoff', confidence: 0.8 },
    tags: ['http', 'resilience'],
    ...overrides,
  };
}

export async function contributeUnit(app: FastifyInstance, key: string, overrides: Record<string, unknown> = {}) {
  const res = await call(app, 'POST', '/v1/knowledge', { key, body: unitBody(overrides) });
  if (res.statusCode !== 201) throw new Error(`contribute unit: ${res.statusCode} ${res.body}`);
  return res.json().data as { id: string; quality_score: number; [k: string]: unknown };
}

export function skillMd(
  fields: Record<string, string> = {},
  body = '# Usage\n\nRun the tool.\n\n- step one\n',
): string {
  const all = { name: 'pdf-tools', description: 'Extract text and tables from PDF files.', ...fields };
  const yaml = Object.entries(all)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
  return `---\n${yaml}\n---\n${body}`;
}

export async function contributeSkill(
  app: FastifyInstance,
  key: string,
  fields: Record<string, string> = {},
  visibility = 'public',
  body?: string,
) {
  const res = await call(app, 'POST', '/v1/skills', {
    key,
    body: { skill_md_content: skillMd(fields, body), visibility },
  });
  if (res.statusCode !== 201) throw new Error(`contribute skill: ${res.statusCode} ${res.body}`);
  return res.json().data as { id: string; [k: string]: unknown };
}

/** Asserts nothing about status; returns the error envelope's code, failing if the body is not one. */
export function errorCode(res: Res): string {
  const body = res.json() as { error?: { code?: unknown; message?: unknown } };
  if (
    typeof body.error?.code !== 'string' ||
    typeof body.error?.message !== 'string' ||
    Object.keys(body).length !== 1
  ) {
    throw new Error(`not an error envelope: ${res.body}`);
  }
  return body.error.code;
}
