// Property-based fuzzing of every endpoint with fast-check. Each property builds one app, seeds a few
// agents, units and skills, and then drives it with app.inject():
//
//   1. random, wrong-typed, deep, huge, non-UTF-8 and non-JSON bodies for every POST route;
//   2. random query strings for the two list endpoints;
//   3. random path ids with every method and credential;
//   4. random Authorization headers;
//   5. random sequences of valid operations, checked against a model.
//
// Properties 1-4 check that the service never answers 500, that every error body is exactly the error
// error envelope with the code its status calls for, and that a refused request changes no stored
// data (every table, read through the store's own connection, plus what the API shows). Every property
// runs on SQLite in memory, and on PostgreSQL (a fresh schema each) when REG_TEST_DATABASE_URL is set.
// Runs per property: REG_FUZZ_RUNS (default 150) on SQLite; on PostgreSQL REG_FUZZ_PG_RUNS, else
// REG_FUZZ_RUNS when set, else 50. Seed: REG_FUZZ_SEED (printed); REG_FUZZ_PATH replays one
// counterexample (with --test-name-pattern picking its property). Shared checks live in harness.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { register, skillMd, testApp, testConfig, unitBody, type TestApp } from '../helpers/app.js';
import * as A from './arbitraries.js';
import { buildBody, pathFor, resolveId } from './requests.js';
import {
  aimedRequest,
  announce,
  bearer,
  buildWorld,
  checkResponse,
  checkTreatedAsAnonymous,
  describeExchange,
  expectStatus,
  fcParams,
  fuzzBackends,
  guarded,
  histogram,
  json,
  MODEL_RESET_EVERY,
  newUnit,
  seen,
  send,
  takeFingerprint,
  type FuzzBackend,
  type PageBody,
  type Res,
  type Sent,
} from './harness.js';

// ---- property 1: bodies -------------------------------------------------------------------------------

function byteLength(payload: string | Buffer | undefined): number {
  if (payload === undefined) return 0;
  return Buffer.isBuffer(payload) ? payload.length : Buffer.byteLength(payload);
}

type BodyCaller = 'proper' | 'none' | 'wrong';

const idempotencyHeader = fc.option(
  fc.oneof(
    fc.uuid(),
    fc.constantFrom('', ' ', 'x'.repeat(256), 'é', 'key with spaces', 'a\tb'),
    fc.string({ maxLength: 20 }),
  ),
  { nil: null, freq: 4 },
);

for (const b of fuzzBackends()) {
  describe(`fuzz: bodies of every POST route [${b.name}]`, { skip: b.skip }, () => {
    it('never 500, always the error envelope, refused bodies change nothing', async (t) => {
      announce(t, b.runs);
      const w = await buildWorld(await b.open());
      try {
        const seeds: A.BodySeeds = {
          foreignPrefixes: [w.writer.prefix, w.reader.prefix, w.admin.prefix, w.other.prefix, w.revokedKey.slice(0, 8)],
          agentIds: [...w.agents],
        };
        const recipe = fc.constantFrom(...A.POST_ROUTES).chain((route) =>
          fc.record({
            route: fc.constant(route),
            body: A.bodyRecipe(route, seeds),
            caller: fc.constantFrom<BodyCaller>('proper', 'proper', 'proper', 'proper', 'none', 'wrong'),
            idempotencyKey: idempotencyHeader,
          }),
        );
        await fc.assert(
          fc.asyncProperty(recipe, async ({ route, body, caller, idempotencyKey }) => {
            const built = buildBody(body);
            const headers: Record<string, string> = {};
            if (built.contentType !== null) headers['content-type'] = built.contentType;
            if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
            const keys: Record<A.PostRoute, { url: string; proper: string | null; wrong: string }> = {
              register: { url: '/v1/auth/register', proper: null, wrong: w.reader.key },
              revoke: { url: '/v1/auth/revoke', proper: w.revoker.key, wrong: 'reg_' + 'A'.repeat(40) },
              skills: { url: '/v1/skills', proper: w.writer.key, wrong: w.reader.key },
              knowledge: { url: '/v1/knowledge', proper: w.writer.key, wrong: w.reader.key },
              validate: {
                url: `/v1/knowledge/${w.foreignUnit}/validate`,
                proper: w.writer.key,
                wrong: 'reg_' + 'A'.repeat(40),
              },
            };
            const target = keys[route];
            const key = caller === 'proper' ? target.proper : caller === 'wrong' ? target.wrong : null;
            if (key !== null) Object.assign(headers, bearer(key));
            const s: Sent = {
              method: 'POST',
              url: target.url,
              headers,
              ...(built.payload !== undefined ? { payload: built.payload } : {}),
            };

            const agentsBefore = new Set(w.agents);
            const res = await guarded(w, s);

            const bytes = byteLength(built.payload);
            if (bytes > A.MIB) expectStatus(s, res, [413], `a ${bytes}-byte body is over 1 MiB`);
            else if (res.statusCode === 413)
              throw new Error(`413 for a ${bytes}-byte body, not over 1 MiB${describeExchange(s, res)}`);

            if (res.statusCode < 300) {
              const sentBody =
                typeof built.payload === 'string' ? (JSON.parse(built.payload) as Record<string, unknown>) : {};
              if (route === 'register') {
                const id = String(sentBody.agent_id);
                // An existing agent gets further keys only through its own key or an admin's.
                if (agentsBefore.has(id) && key === null)
                  throw new Error(`anonymous registration took over existing agent ${id}${describeExchange(s, res)}`);
                w.agents.add(id);
              }
              if (route === 'revoke')
                throw new Error(`revoked a key the caller does not own${describeExchange(s, res)}`);
              if (route === 'knowledge' || route === 'skills') {
                const data = res.json().data as { agent_id: string; quality_score: number };
                assert.equal(
                  data.agent_id,
                  'writer',
                  `contribution credited to the wrong agent${describeExchange(s, res)}`,
                );
                assert.ok(
                  data.quality_score >= 0 && data.quality_score <= 1,
                  `quality_score out of [0, 1]${describeExchange(s, res)}`,
                );
              }
            }
          }),
          fcParams(b.runs),
        );
      } finally {
        t.diagnostic(`statuses: ${histogram()}`);
        await w.t.close();
      }
    });
  });
}

// ---- property 2: list query strings --------------------------------------------------------------

/** The one value a parameter was given, decoded as the server must decode it; undefined when absent, repeated or raw. */
function singleDecoded(params: A.QueryParam[], name: string): string | null | undefined {
  const given = params.filter((p) => p.name === name);
  if (given.length === 0) return undefined;
  const only = given[0]!;
  if (given.length > 1 || only.encoding === 'raw' || !A.isWellFormed(only.value)) return null;
  return only.value;
}

for (const b of fuzzBackends()) {
  describe(`fuzz: list query strings [${b.name}]`, { skip: b.skip }, () => {
    it('never 500, always the envelope, pages that add up, filters that hold', async (t) => {
      announce(t, b.runs);
      const w = await buildWorld(await b.open());
      try {
        await fc.assert(
          fc.asyncProperty(A.queryRecipe, async (r) => {
            const parts = r.params.map(A.writeParam);
            if (r.junk !== null) parts.push(r.junk);
            const url = `${r.path}${r.trailingSlash ? '/' : ''}${parts.length ? `?${parts.join('&')}` : ''}`;
            const keyOf = { anonymous: null, reader: w.reader.key, writer: w.writer.key, admin: w.admin.key }[r.caller];
            const s: Sent = { method: 'GET', url, headers: keyOf ? bearer(keyOf) : {} };
            const res = await guarded(w, s);
            expectStatus(s, res, [200, 400], 'a list answers 200 or 400');

            const clean = r.junk === null;
            for (const name of ['limit', 'offset', 'min_quality']) {
              const value = clean ? singleDecoded(r.params, name) : null;
              if (typeof value === 'string' && Number.isNaN(Number(value)) && res.statusCode === 200) {
                throw new Error(
                  `${name}=${JSON.stringify(value)} is not a number, yet the list answered 200${describeExchange(s, res)}`,
                );
              }
            }
            if (res.statusCode !== 200) return;

            const page = res.json() as PageBody;
            const shape = Object.keys(page).sort().join(',');
            // `capped` comes with a search (q), and only then.
            assert.ok(
              ['data,limit,offset,total', 'capped,data,limit,offset,total'].includes(shape),
              `list body keys: ${shape}${describeExchange(s, res)}`,
            );
            if ('capped' in page)
              assert.equal(typeof page.capped, 'boolean', `capped is a boolean${describeExchange(s, res)}`);
            assert.ok(Array.isArray(page.data), `data is an array${describeExchange(s, res)}`);
            assert.ok(
              Number.isInteger(page.limit) && page.limit >= 1 && page.limit <= 100,
              `limit in 1..100${describeExchange(s, res)}`,
            );
            assert.ok(Number.isInteger(page.offset) && page.offset >= 0, `offset >= 0${describeExchange(s, res)}`);
            assert.ok(Number.isInteger(page.total) && page.total >= 0, `total >= 0${describeExchange(s, res)}`);
            assert.equal(
              page.data.length,
              Math.max(0, Math.min(page.limit, page.total - page.offset)),
              `page size vs total/offset/limit${describeExchange(s, res)}`,
            );

            if (clean) {
              const limit = singleDecoded(r.params, 'limit');
              // == 0 and -0 alike: "offset=-0" may well be echoed as 0.
              if (typeof limit === 'string')
                assert.ok(page.limit === Number(limit), `echoed limit${describeExchange(s, res)}`);
              const offset = singleDecoded(r.params, 'offset');
              if (typeof offset === 'string')
                assert.ok(page.offset === Number(offset), `echoed offset${describeExchange(s, res)}`);
              const minQuality = singleDecoded(r.params, 'min_quality');
              if (typeof minQuality === 'string') {
                const floor = Number(minQuality);
                assert.ok(
                  floor >= 0 && floor <= 1,
                  `min_quality ${minQuality} outside [0, 1] was accepted${describeExchange(s, res)}`,
                );
                for (const item of page.data)
                  assert.ok(
                    (item.quality_score as number) >= floor,
                    `item below min_quality${describeExchange(s, res)}`,
                  );
              }
              const types = r.path === '/v1/knowledge' ? singleDecoded(r.params, 'types') : undefined;
              if (typeof types === 'string') {
                const wanted = new Set(
                  types
                    .split(',')
                    .map((x) => x.trim())
                    .filter(Boolean),
                );
                if (wanted.size > 0)
                  for (const item of page.data)
                    assert.ok(
                      wanted.has(item.type as string),
                      `item of a type not asked for${describeExchange(s, res)}`,
                    );
              }
            }
            if (r.path === '/v1/skills') {
              for (const item of page.data) {
                const visible =
                  item.visibility === 'public' ||
                  r.caller === 'admin' ||
                  (r.caller === 'writer' && item.agent_id === 'writer');
                assert.ok(visible, `a private skill leaked to ${r.caller}${describeExchange(s, res)}`);
              }
            }
          }),
          fcParams(b.runs),
        );
      } finally {
        t.diagnostic(`statuses: ${histogram()}`);
        await w.t.close();
      }
    });
  });
}

// ---- property 3: path ids -------------------------------------------------------------------------

const ROUTE_METHODS: Record<A.PathTemplate, A.Method[]> = {
  unit: ['GET', 'HEAD', 'DELETE'],
  skill: ['GET', 'HEAD'],
  validate: ['POST'],
  reputation: ['GET', 'HEAD'],
  export: ['GET', 'HEAD'],
};

for (const b of fuzzBackends()) {
  describe(`fuzz: path ids, methods and credentials [${b.name}]`, { skip: b.skip }, () => {
    it('never 500, always the envelope, and ids find exactly what they name', async (t) => {
      announce(t, b.runs);
      const w = await buildWorld(await b.open());
      try {
        await fc.assert(
          fc.asyncProperty(A.pathRecipe, async (r) => {
            const { raw, decoded } = resolveId(w, r.id);
            const path = pathFor(r.template, raw);
            const callers: Record<A.Caller, { key: string | null; agent: string | null }> = {
              none: { key: null, agent: null },
              reader: { key: w.reader.key, agent: 'reader' },
              writer: { key: w.writer.key, agent: 'writer' },
              admin: { key: w.admin.key, agent: 'admin' },
              other: { key: w.other.key, agent: 'other' },
              bogus: { key: 'reg_' + 'Z'.repeat(40), agent: null },
              revoked: { key: w.revokedKey, agent: null },
            };
            const caller = callers[r.caller];
            const headers: Record<string, string> = caller.key ? bearer(caller.key) : {};
            let payload: string | undefined;
            if (r.body !== 'none' && r.method !== 'GET' && r.method !== 'HEAD') {
              headers['content-type'] = 'application/json';
              payload =
                r.body === 'verdict'
                  ? '{"valid":true,"feedback":"fuzz"}'
                  : '{"valid":"yes","__proto__":{"admin":true}}';
            }
            const s: Sent = {
              method: r.method,
              url: path + r.tail,
              headers,
              ...(payload !== undefined ? { payload } : {}),
            };
            const unitBefore = w.unit;
            const res = await guarded(w, s);
            const status = res.statusCode;

            const served = ROUTE_METHODS[r.template].includes(r.method);
            const exact = (r.tail === '' || r.tail === '?x=1') && decoded !== null;
            if (r.tail === '' && !served && status < 400) {
              throw new Error(
                `${r.method} is not served on this path, yet answered ${status}${describeExchange(s, res)}`,
              );
            }
            if (exact && served) {
              const authenticated = caller.agent !== null;
              const unitOwner = w.liveUnits.get(decoded);
              switch (r.template) {
                case 'unit':
                  if (r.method === 'DELETE') {
                    // A body that is not JSON is refused while parsing, before credentials are looked at.
                    if (!authenticated)
                      expectStatus(
                        s,
                        res,
                        r.body === 'junk' ? [400, 401] : [401],
                        'DELETE without a working credential',
                      );
                    else if (unitOwner === undefined) expectStatus(s, res, [400, 404], 'DELETE of no live unit');
                    else if (caller.agent === 'admin' || (caller.agent === unitOwner && caller.agent !== 'reader'))
                      expectStatus(s, res, [200], 'DELETE by owner or admin');
                    else expectStatus(s, res, [403], 'DELETE of a unit the caller does not own');
                  } else if (unitOwner !== undefined) expectStatus(s, res, [200], 'GET of a live unit');
                  else expectStatus(s, res, [400, 404], 'GET of no live unit');
                  break;
                case 'skill': {
                  const visible =
                    decoded === w.skill ||
                    (decoded === w.privateSkill && (caller.agent === 'writer' || caller.agent === 'admin'));
                  expectStatus(
                    s,
                    res,
                    visible ? [200] : [400, 404],
                    visible ? 'a skill the caller may see' : 'no skill the caller may see',
                  );
                  break;
                }
                case 'validate':
                  if (!authenticated)
                    expectStatus(
                      s,
                      res,
                      r.body === 'junk' ? [400, 401] : [401],
                      'validate without a working credential',
                    );
                  else if (r.body !== 'verdict')
                    expectStatus(s, res, [400, 404, 415], 'validate without a valid verdict');
                  else if (unitOwner === undefined) expectStatus(s, res, [400, 404], 'validate of no live unit');
                  else if (unitOwner === caller.agent) expectStatus(s, res, [403], 'validate of an own unit');
                  else expectStatus(s, res, [200], 'validate of a live unit of another agent');
                  break;
                case 'reputation':
                  expectStatus(s, res, w.agents.has(decoded) ? [200] : [400, 404], 'reputation of an agent id');
                  break;
                case 'export':
                  if (!authenticated) expectStatus(s, res, [401], 'export without a working credential');
                  else if (caller.agent === decoded) expectStatus(s, res, [200], 'export of own data');
                  else if (caller.agent === 'admin')
                    expectStatus(s, res, w.agents.has(decoded) ? [200] : [400, 404], 'admin export');
                  else expectStatus(s, res, [400, 403], 'export of another agent');
                  break;
              }
            }
            if (r.template === 'export' && status === 200 && r.method === 'GET') {
              const who = (res.json() as { data: { agent_id: string } }).data.agent_id;
              if (caller.agent !== 'admin' && who !== caller.agent)
                throw new Error(`exported ${who} to ${caller.agent}${describeExchange(s, res)}`);
            }
            // Keep the pools alive: a fuzzed DELETE that removed a known unit gets a replacement.
            if (r.method === 'DELETE' && status === 200 && decoded !== null && w.liveUnits.has(decoded)) {
              const owner = w.liveUnits.get(decoded)!;
              w.liveUnits.delete(decoded);
              w.deletedUnits.unshift(decoded);
              const ownerKey = owner === 'writer' ? w.writer.key : w.other.key;
              const replacement = await newUnit(w.app, ownerKey, `Replacement unit of ${owner}`);
              w.liveUnits.set(replacement, owner);
              if (decoded === unitBefore) w.unit = replacement;
              if (decoded === w.foreignUnit) w.foreignUnit = replacement;
              w.fingerprint = await takeFingerprint(w);
            }
          }),
          fcParams(b.runs),
        );
      } finally {
        t.diagnostic(`statuses: ${histogram()}`);
        await w.t.close();
      }
    });
  });
}

// ---- property 4: Authorization headers ----------------------------------------------------------

for (const b of fuzzBackends()) {
  describe(`fuzz: Authorization headers [${b.name}]`, { skip: b.skip }, () => {
    it('a credential that does not authenticate is anonymous, says invalid_token, and changes nothing', async (t) => {
      announce(t, b.runs);
      const w = await buildWorld(await b.open());
      try {
        const anonymousSkills = (await send(w.app, { method: 'GET', url: '/v1/skills?limit=100', headers: {} })).json()
          .total as number;
        await fc.assert(
          fc.asyncProperty(A.authRecipe, A.authTarget, async (a, target) => {
            const authorization =
              a.kind === 'literal'
                ? a.value
                : a.kind === 'revoked'
                  ? `Bearer ${w.revokedKey}`
                  : A.mangleKey(a.who === 'writer' ? w.writer.key : w.admin.key, a.how);
            const aimed = aimedRequest(w, target, authorization);
            const res = await guarded(w, aimed.s);
            checkTreatedAsAnonymous(target, aimed, res, anonymousSkills);
          }),
          fcParams(b.runs),
        );
      } finally {
        t.diagnostic(`statuses: ${histogram()}`);
        await w.t.close();
      }
    });
  });
}

// ---- property 5: valid operations against a model ---------------------------------------------------

interface ModelKey {
  key: string;
  prefix: string;
  scopes: string[];
  revoked: boolean;
}

interface ModelAgent {
  id: string;
  admin: boolean;
  keys: ModelKey[];
  millis: number;
  contributions: number;
  firstVerdicts: number;
  events: number;
}

interface ModelUnit {
  id: string;
  owner: string;
  live: boolean;
  verdicts: Map<string, boolean>;
}

interface Model {
  t: TestApp;
  app: FastifyInstance;
  agents: ModelAgent[];
  units: ModelUnit[];
  skills: Array<{ id: string; owner: string; name: string; visibility: 'public' | 'private' }>;
}

const WRITERS = ['alice', 'bob', 'carol', 'root'];

async function buildModel(b: FuzzBackend): Promise<Model> {
  // The event-loop guard is off here: valid operations must succeed, never be shed as 503 on a busy machine.
  const t = await testApp(await b.open(), {
    config: testConfig({ openAdminRegistration: true }),
    limits: { maxEventLoopDelayMs: 0 },
  });
  const agents: ModelAgent[] = [];
  for (const [id, scopes] of [
    ['alice', ['read', 'write']],
    ['bob', ['read', 'write']],
    ['carol', ['read', 'write']],
    ['dave', ['read']],
    ['root', ['read', 'write', 'admin']],
  ] as const) {
    const key = await register(t.app, id, [...scopes]);
    agents.push({
      id,
      admin: id === 'root',
      keys: [{ key, prefix: key.slice(0, 8), scopes: [...scopes], revoked: false }],
      millis: 0,
      contributions: 0,
      firstVerdicts: 0,
      events: 0,
    });
  }
  return { t, app: t.app, agents, units: [], skills: [] };
}

const byId = (m: Model, id: string) => m.agents.find((a) => a.id === id)!;
const activeKeys = (a: ModelAgent) => a.keys.filter((k) => !k.revoked);

async function expectOk(m: Model, s: Sent, allowed: number[], why: string): Promise<Res> {
  const res = await send(m.app, s);
  seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
  checkResponse(s, res);
  expectStatus(s, res, allowed, why);
  return res;
}

async function runOp(m: Model, o: A.Op, touched: Set<ModelUnit>): Promise<void> {
  switch (o.t) {
    case 'unit': {
      const a = byId(m, WRITERS[o.agent % WRITERS.length]!);
      const keys = activeKeys(a);
      const k = keys[o.key % keys.length]!;
      const examples = Array.from({ length: o.examples }, (_, i) => `example ${i} of ${o.title}`);
      const payload = JSON.stringify(
        unitBody({
          title: o.title,
          type: o.type,
          tags: o.tags,
          content: { description: `How to ${o.title}.`, examples },
          metadata: { source: 'https://example.org', confidence: o.confidence },
        }),
      );
      const canWrite = k.scopes.includes('write');
      const s: Sent = { method: 'POST', url: '/v1/knowledge', headers: { ...bearer(k.key), ...json }, payload };
      const res = await expectOk(
        m,
        s,
        canWrite ? [201] : [403],
        canWrite ? 'contribute with a write key' : 'contribute with a read-only key',
      );
      if (res.statusCode === 201) {
        const unit: ModelUnit = { id: res.json().data.id as string, owner: a.id, live: true, verdicts: new Map() };
        m.units.push(unit);
        touched.add(unit);
        a.millis += 200;
        a.contributions += 1;
        a.events += 1;
      }
      return;
    }
    case 'skill': {
      const a = byId(m, WRITERS[o.agent % WRITERS.length]!);
      const keys = activeKeys(a);
      const k = keys[o.key % keys.length]!;
      const canWrite = k.scopes.includes('write');
      const s: Sent = {
        method: 'POST',
        url: '/v1/skills',
        headers: { ...bearer(k.key), ...json },
        payload: JSON.stringify({ skill_md_content: skillMd({ name: o.name }), visibility: o.visibility }),
      };
      // A skill is its publisher and name: the same SKILL.md again answers 200 with the skill it made, and earns nothing.
      const published = m.skills.find((x) => x.owner === a.id && x.name === o.name);
      const expected = !canWrite ? 403 : published ? 200 : 201;
      const res = await expectOk(
        m,
        s,
        [expected],
        canWrite ? 'contribute a skill with a write key' : 'contribute a skill with a read-only key',
      );
      if (res.statusCode === 200)
        assert.equal(
          res.json().data.id,
          published!.id,
          `the same content answers the same skill${describeExchange(s, res)}`,
        );
      if (res.statusCode === 201) {
        m.skills.push({ id: res.json().data.id as string, owner: a.id, name: o.name, visibility: o.visibility });
        a.millis += 100;
        a.contributions += 1;
        a.events += 1;
      }
      return;
    }
    case 'validate': {
      const unit = m.units[o.unit % Math.max(m.units.length, 1)];
      if (!unit) return;
      const a = m.agents[o.agent % m.agents.length]!;
      const keys = activeKeys(a);
      const k = keys[o.key % keys.length]!;
      const verdict: Record<string, unknown> = { valid: o.valid };
      if (o.feedback !== null) verdict.feedback = o.feedback;
      const s: Sent = {
        method: 'POST',
        url: `/v1/knowledge/${unit.id}/validate`,
        headers: { ...bearer(k.key), ...json },
        payload: JSON.stringify(verdict),
      };
      const expected = !unit.live ? 404 : unit.owner === a.id ? 403 : 200;
      const res = await expectOk(m, s, [expected], 'validate');
      touched.add(unit);
      if (res.statusCode === 200) {
        const data = res.json().data as { id: string; validated: boolean; feedback: string };
        assert.deepEqual(
          data,
          { id: unit.id, validated: o.valid, feedback: o.feedback ?? '' },
          `verdict echo${describeExchange(s, res)}`,
        );
        if (!unit.verdicts.has(a.id)) {
          a.millis += 50;
          a.firstVerdicts += 1;
          a.events += 1;
        }
        unit.verdicts.set(a.id, o.valid);
      }
      return;
    }
    case 'delete': {
      const a = m.agents[o.agent % m.agents.length]!;
      const pool = o.own ? m.units.filter((u) => u.owner === a.id) : m.units;
      const unit = pool[o.unit % Math.max(pool.length, 1)];
      if (!unit) return;
      const keys = activeKeys(a);
      const k = keys[o.key % keys.length]!;
      const s: Sent = { method: 'DELETE', url: `/v1/knowledge/${unit.id}`, headers: bearer(k.key) };
      const allowed = k.scopes.includes('admin') || (unit.owner === a.id && k.scopes.includes('write'));
      const expected = !unit.live ? 404 : allowed ? 200 : 403;
      const res = await expectOk(m, s, [expected], 'delete');
      touched.add(unit);
      if (res.statusCode === 200) {
        unit.live = false;
        // Deleting takes the contribution reward back: one more history item, one contribution less.
        const owner = byId(m, unit.owner);
        owner.millis -= 200;
        owner.contributions -= 1;
        owner.events += 1;
      }
      return;
    }
    case 'addKey': {
      const a = m.agents[o.agent % m.agents.length]!;
      if (a.keys.length >= 6) return;
      const primary = a.keys[0]!;
      const s: Sent = {
        method: 'POST',
        url: '/v1/auth/register',
        headers: { ...bearer(primary.key), ...json },
        payload: JSON.stringify({ agent_id: a.id, scopes: o.scopes, tier: 'pro' }),
      };
      const allowed = o.scopes.every((x) => primary.scopes.includes(x));
      const res = await expectOk(m, s, [allowed ? 201 : 403], 'a further key for the own agent');
      if (res.statusCode === 201) {
        const key = res.json().data.api_key as string;
        a.keys.push({ key, prefix: key.slice(0, 8), scopes: [...o.scopes], revoked: false });
      }
      return;
    }
    case 'revokeKey': {
      const a = m.agents[o.agent % m.agents.length]!;
      const primary = a.keys[0]!;
      const secondary = a.keys.slice(1).filter((k) => !k.revoked);
      const victim = secondary[o.key % Math.max(secondary.length, 1)];
      if (!victim) {
        // Nothing of its own to revoke: another agent's key must be reported as not found, and keep working.
        const stranger = m.agents[(o.agent + 1) % m.agents.length]!;
        if (a.admin) return;
        const s: Sent = {
          method: 'POST',
          url: '/v1/auth/revoke',
          headers: { ...bearer(primary.key), ...json },
          payload: JSON.stringify({ key_prefix: stranger.keys[0]!.prefix }),
        };
        await expectOk(m, s, [404], "revoke another agent's key");
        const probe: Sent = { method: 'GET', url: `/v1/export/${stranger.id}`, headers: bearer(stranger.keys[0]!.key) };
        await expectOk(m, probe, [200], 'the other agent key still works');
        return;
      }
      const s: Sent = {
        method: 'POST',
        url: '/v1/auth/revoke',
        headers: { ...bearer(primary.key), ...json },
        payload: JSON.stringify({ key_prefix: victim.prefix }),
      };
      const res = await expectOk(m, s, [200], 'revoke an own secondary key');
      assert.deepEqual(res.json().data, { revoked: true, key_prefix: victim.prefix });
      victim.revoked = true;
      const probe: Sent = { method: 'GET', url: `/v1/export/${a.id}`, headers: bearer(victim.key) };
      await expectOk(m, probe, [401], 'a revoked key is refused at once');
      return;
    }
    case 'look': {
      const unit = m.units[o.unit % Math.max(m.units.length, 1)];
      if (unit) touched.add(unit);
      return;
    }
  }
}

async function checkInvariants(m: Model, touched: Set<ModelUnit>, exportAgent: number): Promise<void> {
  for (const a of m.agents) {
    const s: Sent = { method: 'GET', url: `/v1/reputation/${a.id}`, headers: {} };
    const res = await expectOk(m, s, [200], 'reputation of a registered agent');
    const p = res.json().data as { score: number; contributions: number; validations: number };
    const expected = a.millis / 1000;
    assert.equal(
      p.score,
      expected,
      `score of ${a.id} must be 0.1·skills + 0.2·units + 0.05·first verdicts = ${expected}${describeExchange(s, res)}`,
    );
    assert.equal(
      Number(p.score.toFixed(3)),
      p.score,
      `score of ${a.id} not exact to the thousandth${describeExchange(s, res)}`,
    );
    assert.equal(p.contributions, a.contributions, `contributions of ${a.id}${describeExchange(s, res)}`);
    assert.equal(p.validations, a.firstVerdicts, `validations of ${a.id}${describeExchange(s, res)}`);
  }

  const live = m.units.filter((u) => u.live).length;
  const units: Sent = { method: 'GET', url: '/v1/knowledge?limit=1', headers: {} };
  const unitsRes = await expectOk(m, units, [200], 'list units');
  assert.equal(
    unitsRes.json().total,
    live,
    `list total must equal the ${live} live public units${describeExchange(units, unitsRes)}`,
  );

  const views: Array<[string | null, number]> = [
    [null, m.skills.filter((x) => x.visibility === 'public').length],
    ['root', m.skills.length],
    ['alice', m.skills.filter((x) => x.visibility === 'public' || x.owner === 'alice').length],
  ];
  for (const [viewer, count] of views) {
    const headers = viewer ? bearer(byId(m, viewer).keys[0]!.key) : {};
    const s: Sent = { method: 'GET', url: '/v1/skills?limit=1', headers };
    const res = await expectOk(m, s, [200], 'list skills');
    assert.equal(res.json().total, count, `skill total seen by ${viewer ?? 'anonymous'}${describeExchange(s, res)}`);
  }

  for (const unit of touched) {
    const s: Sent = { method: 'GET', url: `/v1/knowledge/${unit.id}`, headers: {} };
    const res = await expectOk(m, s, [unit.live ? 200 : 404], unit.live ? 'a live unit' : 'a deleted unit is gone');
    if (unit.live) {
      const data = res.json().data as { agent_id: string; validations: { valid: number; invalid: number } };
      const verdicts = [...unit.verdicts.values()];
      assert.equal(data.agent_id, unit.owner, `unit owner${describeExchange(s, res)}`);
      assert.deepEqual(
        data.validations,
        { valid: verdicts.filter(Boolean).length, invalid: verdicts.filter((v) => !v).length },
        `verdict counts (one per agent, the latest)${describeExchange(s, res)}`,
      );
    }
  }

  const a = m.agents[exportAgent % m.agents.length]!;
  const s: Sent = { method: 'GET', url: `/v1/export/${a.id}`, headers: bearer(a.keys[0]!.key) };
  const res = await expectOk(m, s, [200], 'export of own data');
  const doc = res.json().data as {
    agent_id: string;
    keys: Array<{ key_prefix: string; revoked_at: string | null }>;
    knowledge_units: Array<{ id: string }>;
    skills: Array<{ id: string }>;
    validations: Array<{ unit_id: string; valid: boolean }>;
    reputation: { score: number; history: unknown[] };
  };
  const sorted = (xs: string[]) => [...xs].sort();
  assert.equal(doc.agent_id, a.id);
  assert.deepEqual(
    sorted(doc.knowledge_units.map((u) => u.id)),
    sorted(m.units.filter((u) => u.live && u.owner === a.id).map((u) => u.id)),
    `exported units of ${a.id}`,
  );
  assert.deepEqual(
    sorted(doc.skills.map((x) => x.id)),
    sorted(m.skills.filter((x) => x.owner === a.id).map((x) => x.id)),
    `exported skills of ${a.id}`,
  );
  assert.deepEqual(
    sorted(doc.keys.map((k) => `${k.key_prefix}:${k.revoked_at === null ? 'active' : 'revoked'}`)),
    sorted(a.keys.map((k) => `${k.prefix}:${k.revoked ? 'revoked' : 'active'}`)),
    `exported keys of ${a.id}`,
  );
  const given = m.units.filter((u) => u.live && u.verdicts.has(a.id)).map((u) => `${u.id}:${u.verdicts.get(a.id)}`);
  assert.deepEqual(
    sorted(doc.validations.map((v) => `${v.unit_id}:${v.valid}`)),
    sorted(given),
    `exported verdicts of ${a.id}`,
  );
  assert.equal(doc.reputation.score, a.millis / 1000, `exported score of ${a.id}`);
  assert.equal(doc.reputation.history.length, a.events, `exported history of ${a.id} (one item per reward)`);
  assert.ok(!res.body.includes(a.keys[0]!.key), 'the export must not contain a raw key');
}

for (const b of fuzzBackends()) {
  describe(`fuzz: valid operations keep the invariants [${b.name}]`, { skip: b.skip }, () => {
    it('reputation, list totals, verdict counts, deletions and exports follow a model', async (t) => {
      announce(t, b.runs);
      t.diagnostic(`the model app starts over every ${MODEL_RESET_EVERY} runs (REG_FUZZ_RESET_EVERY)`);
      let m = await buildModel(b);
      let runs = 0;
      try {
        await fc.assert(
          fc.asyncProperty(fc.array(A.op, { minLength: 1, maxLength: 10 }), fc.nat(), async (ops, exportAgent) => {
            if (runs > 0 && runs % MODEL_RESET_EVERY === 0) {
              await m.t.close();
              m = await buildModel(b);
            }
            runs++;
            const touched = new Set<ModelUnit>();
            for (const o of ops) await runOp(m, o, touched);
            await checkInvariants(m, touched, exportAgent);
          }),
          fcParams(b.runs),
        );
      } finally {
        t.diagnostic(`statuses: ${histogram()}`);
        await m.t.close();
      }
    });
  });
}
