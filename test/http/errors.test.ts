import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { loggerOptions } from '../../src/app.js';
import { UnstorableTextError } from '../../src/store/store.js';
import { backends, faultyLink, openPostgres, postgresUrl, type FaultyLink } from '../helpers/backends.js';
import { call, errorCode, register, testApp, unitBody, type Res, type TestApp } from '../helpers/app.js';

for (const backend of backends())
  describe(`the error envelope, from routes and from the framework [${backend.name}]`, () => {
    let t: TestApp;
    let key: string;
    before(async () => {
      t = await testApp(await backend.open());
      key = await register(t.app, 'envelope');
    });
    after(async () => t.close());

    it('answers an unknown route with 404 NOT_FOUND', async () => {
      const res = await call(t.app, 'GET', '/v1/nothing-here');
      assert.equal(res.statusCode, 404);
      assert.equal(errorCode(res), 'NOT_FOUND');
      assert.equal(errorCode(await call(t.app, 'GET', '/nothing-here')), 'NOT_FOUND');
    });

    it('answers a known path with a wrong method with 405 and Allow', async () => {
      const res = await call(t.app, 'PUT', '/v1/knowledge/ku_x');
      assert.equal(res.statusCode, 405);
      assert.equal(errorCode(res), 'METHOD_NOT_ALLOWED');
      assert.equal(res.headers.allow, 'DELETE, GET, HEAD');
      const patch = await call(t.app, 'PATCH', '/v1/auth/register');
      assert.equal(patch.statusCode, 405);
      assert.equal(patch.headers.allow, 'POST');
    });

    it('answers a path the router cannot decode, or an overlong id, with the envelope and a request id', async () => {
      const bad = await call(t.app, 'GET', '/v1/knowledge/%%00');
      assert.equal(bad.statusCode, 400);
      assert.equal(errorCode(bad), 'VALIDATION_ERROR');
      assert.match(bad.json().error.message, /malformed percent-encoding/);
      assert.ok(bad.headers['x-request-id']);
      // An overlong id meets the same checks as any other: 401 without a key, 400 naming the parameter with one.
      const long = `/v1/knowledge/${'a'.repeat(5_000)}`;
      assert.equal((await call(t.app, 'DELETE', long)).statusCode, 401);
      const named = await call(t.app, 'DELETE', long, { key });
      assert.equal(named.statusCode, 400);
      assert.match(named.json().error.message, /^path parameter id /);
      assert.ok(named.body.length < 300, 'the message does not echo the path');
    });

    it('answers malformed JSON with 400 VALIDATION_ERROR', async () => {
      const res = await call(t.app, 'POST', '/v1/auth/register', {
        body: '{"agent_id": "x",',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(res.statusCode, 400);
      assert.equal(errorCode(res), 'VALIDATION_ERROR');
      assert.match(res.json().error.message, /JSON/);
      const empty = await call(t.app, 'POST', '/v1/knowledge', {
        key,
        body: '',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(empty.statusCode, 400);
      assert.equal(errorCode(empty), 'VALIDATION_ERROR');
    });

    it('answers a body over 1 MiB with 413 PAYLOAD_TOO_LARGE', async () => {
      const res = await call(t.app, 'POST', '/v1/knowledge', {
        key,
        body: JSON.stringify({ title: 'x'.repeat(1024 * 1024) }),
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(res.statusCode, 413);
      assert.equal(errorCode(res), 'PAYLOAD_TOO_LARGE');
    });

    it('answers a body that is not JSON with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
        const res = await call(t.app, 'POST', '/v1/auth/register', {
          body: 'agent_id=x',
          headers: { 'content-type': type },
        });
        assert.equal(res.statusCode, 415, type);
        assert.equal(errorCode(res), 'UNSUPPORTED_MEDIA_TYPE');
      }
    });

    it('answers text the store cannot keep with 400 VALIDATION_ERROR, not a 500', async () => {
      // The HTTP layer refuses such text first; this is the store's second line of defence (PostgreSQL).
      const store = await backend.open();
      store.listUnits = async () => {
        throw new UnstorableTextError('domain contains characters that cannot be stored (NUL or invalid Unicode)');
      };
      const refusing = await testApp(store);
      try {
        const res = await call(refusing.app, 'GET', '/v1/knowledge?domain=anything');
        assert.equal(res.statusCode, 400);
        assert.equal(errorCode(res), 'VALIDATION_ERROR');
        assert.match(res.json().error.message, /^domain contains characters that cannot be stored/);
      } finally {
        await refusing.close();
      }
    });

    it('never leaks internals in a 500', async () => {
      const broken = await testApp(await backend.open());
      const k = await register(broken.app, 'breaker');
      await broken.store.close(); // every query now fails inside the store
      const res = await call(broken.app, 'GET', '/v1/knowledge', { headers: {} });
      assert.equal(res.statusCode, 500);
      assert.equal(errorCode(res), 'INTERNAL_ERROR');
      assert.doesNotMatch(res.body, /sqlite|postgres|pool|SELECT|at .*\.ts/i);
      const ready = await call(broken.app, 'GET', '/readyz');
      assert.equal(ready.statusCode, 503);
      assert.equal(errorCode(ready), 'UNAVAILABLE');
      assert.ok(ready.headers['retry-after']);
      assert.ok(k);
      await broken.app.close();
    });
  });

/** Fails the test instead of waiting forever when a request hangs. */
async function within(ms: number, request: Promise<Res>): Promise<Res & { ms: number }> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return Object.assign(await Promise.race([request, timeout]), { ms: Date.now() - started });
  } finally {
    clearTimeout(timer);
  }
}

function assertUnavailable(res: Res, what: string): void {
  assert.equal(res.statusCode, 503, `${what}: ${res.body}`);
  assert.equal(errorCode(res), 'UNAVAILABLE', what);
  assert.equal(
    res.json().error.message,
    what === 'GET /readyz' ? 'the database is not reachable' : 'the database is unavailable; retry shortly',
  );
  assert.equal(res.headers['retry-after'], '5', what);
}

const url = postgresUrl();
describe(
  'a PostgreSQL outage answers 503 UNAVAILABLE, never 500, and never hangs',
  { skip: url ? false : 'REG_TEST_DATABASE_URL is not set' },
  () => {
    let link: FaultyLink;
    let t: TestApp;
    let key: string;
    const statementMs = 500;
    const logged: { level: number; msg: string; reason?: string; err?: unknown }[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) logged.push(JSON.parse(line));
        done();
      },
    });
    before(async () => {
      link = await faultyLink(url!);
      const logger = { ...(loggerOptions('warn') as object), stream } as never;
      t = await testApp(await openPostgres(url!, { timeouts: { connectMs: 500, statementMs } }, link.url), { logger });
      key = await register(t.app, 'outage');
    });
    after(async () => {
      await link.set('pass');
      await t.close();
      await link.close();
    });

    const requests: [string, () => Promise<Res>][] = [
      ['GET /v1/knowledge', () => call(t.app, 'GET', '/v1/knowledge?q=anything')],
      ['POST /v1/knowledge', () => call(t.app, 'POST', '/v1/knowledge', { key, body: unitBody() })],
      ['GET /v1/reputation/outage', () => call(t.app, 'GET', '/v1/reputation/outage')],
      ['GET /readyz', () => call(t.app, 'GET', '/readyz')],
    ];

    for (const mode of ['refuse', 'silent'] as const) {
      it(`when the database ${mode === 'refuse' ? 'refuses connections' : 'accepts but never answers'}, then recovers`, async () => {
        await link.set(mode);
        // Statement timeout, then the client's 2 s grace for a silent server, and slack for a busy machine.
        const budget = statementMs + 2_000 + 2_000;
        const answers = await Promise.all(requests.map(([, request]) => within(budget, request())));
        answers.forEach((res, i) => {
          assertUnavailable(res, requests[i]![0]);
        });
        // An outage is logged as a warning with its reason, not as an error with a stack.
        const unavailable = logged.splice(0).filter((entry) => entry.msg === 'database unavailable');
        assert.equal(unavailable.length, 3);
        for (const entry of unavailable) {
          assert.equal(entry.level, 40);
          assert.match(entry.reason!, /^PostgreSQL is unavailable: /);
          assert.equal(entry.err, undefined);
        }
        assert.deepEqual(
          logged.filter((entry) => entry.level >= 50),
          [],
        );
        await link.set('pass');
        for (const [what, request] of requests) {
          const res = await within(budget, request());
          assert.ok(
            res.statusCode === 200 || res.statusCode === 201,
            `${what} after recovery: ${res.statusCode} ${res.body}`,
          );
        }
      });
    }
  },
);
