// Bearer JWTs from an identity provider, verified against a real key-set endpoint on 127.0.0.1 with
// real signed tokens: what is accepted, every known way to forge or misuse a token, key rotation,
// a dead key-set endpoint, and the rule that the first kind of credential to use an agent id owns it.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { loadConfig, type OidcConfig } from '../../src/config/index.js';
import {
  createJwtVerifier,
  DEFAULT_JWKS_TIMEOUT_MS,
  type JwtVerifier,
  type JwtVerifierOptions,
} from '../../src/http/oidc.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { StoreUnavailableError, type Store } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import {
  call,
  contributeUnit,
  errorCode,
  register,
  testApp,
  testConfig,
  unitBody,
  type Res,
  type TestApp,
} from '../helpers/app.js';

const ISSUER = 'https://idp.example.test/';
const AUDIENCE = 'knowledge-registry';
const LIMITS = { anonymous: 1000, free: 2000, pro: 3000, enterprise: 4000 };
const INVALID_TOKEN = 'Bearer error="invalid_token"';

// ---- a real key-set endpoint --------------------------------------------------------------------

type Mode = 'ok' | 'error' | 'hang';
interface KeyServer {
  url: string;
  keys: JWK[];
  mode: Mode;
  /** Requests the endpoint has received. */
  hits: number;
  close(): Promise<void>;
}

async function keyServer(keys: JWK[]): Promise<KeyServer> {
  const server = createServer((_request, response) => {
    state.hits++;
    if (state.mode === 'hang') return; // accepts the request and never answers
    if (state.mode === 'error') {
      response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"down"}');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: state.keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closed = false;
  const state: KeyServer = {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    keys,
    mode: 'ok',
    hits: 0,
    close: async () => {
      if (closed) return;
      closed = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return state;
}

// ---- keys and tokens ----------------------------------------------------------------------------

interface SigningKey {
  alg: 'RS256' | 'ES256' | 'PS256' | 'EdDSA' | 'RS512';
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  jwk: JWK;
}

async function signingKey(alg: SigningKey['alg'], kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg);
  return { alg, kid, privateKey, publicKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

const nowSec = () => Math.floor(Date.now() / 1000);

/** Claims a well-behaved provider would issue; an override set to undefined drops the claim. */
function claims(overrides: Record<string, unknown> = {}): JWTPayload {
  return { iss: ISSUER, aud: AUDIENCE, sub: 'idp-user', iat: nowSec(), exp: nowSec() + 300, ...overrides };
}

function sign(
  key: SigningKey,
  overrides: Record<string, unknown> = {},
  header: Record<string, unknown> = {},
): Promise<string> {
  return new SignJWT(claims(overrides))
    .setProtectedHeader({ alg: key.alg, kid: key.kid, ...header })
    .sign(key.privateKey);
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

// ---- the app under test -------------------------------------------------------------------------

interface OidcApp extends TestApp {
  verifier: JwtVerifier;
  /** How often the app handed a bearer token to the JWT verifier. */
  jwtCalls(): number;
  logs: string[];
}

async function oidcApp(
  store: Store,
  jwksUrl: string,
  options: JwtVerifierOptions = {},
  agentPrefix?: string,
): Promise<OidcApp> {
  const oidc: OidcConfig = {
    issuer: ISSUER,
    audience: AUDIENCE,
    jwksUrl,
    ...(agentPrefix === undefined ? {} : { agentPrefix }),
  };
  const logs: string[] = [];
  const record =
    (level: string) =>
    (...args: unknown[]) =>
      void logs.push(JSON.stringify([level, ...args]));
  // No cooldown or back-off unless a test asks: each test then sees the endpoint as it is now.
  const verifier = createJwtVerifier(oidc, store, {
    cooldownMs: 0,
    failureBackoffMs: 0,
    timeoutMs: 300,
    log: { debug: record('debug'), warn: record('warn') },
    ...options,
  });
  let calls = 0;
  const t = await testApp(store, {
    config: testConfig({ oidc, rateLimits: LIMITS }),
    jwt: (token) => {
      calls++;
      return verifier(token);
    },
  });
  return {
    ...t,
    verifier,
    logs,
    jwtCalls: () => calls,
    close: async () => {
      verifier.close();
      await t.close();
    },
  };
}

function assertRefused(res: Res, status: number, what: string): void {
  assert.equal(res.statusCode, status, `${what}: ${res.body}`);
  assert.equal(res.headers['www-authenticate'], INVALID_TOKEN, what);
  if (status === 401) assert.equal(errorCode(res), 'UNAUTHORIZED', what);
}

/** A refused token leaves the request anonymous: a write is 401, a read still answers 200. */
async function assertTokenRefused(t: TestApp, token: string, what: string): Promise<void> {
  assertRefused(await call(t.app, 'POST', '/v1/knowledge', { key: token, body: { title: 'x' } }), 401, what);
  assertRefused(await call(t.app, 'GET', '/v1/knowledge', { key: token }), 200, what);
}

function postUnit(t: TestApp, token: string): Promise<Res> {
  return call(t.app, 'POST', '/v1/knowledge', { key: token, body: unitBody() });
}

// ---- the tests ----------------------------------------------------------------------------------

for (const backend of backends()) {
  describe(`OIDC bearer tokens [${backend.name}]`, () => {
    let rs: SigningKey;
    let es: SigningKey;
    let ps: SigningKey;
    let ed: SigningKey;
    let rs512: SigningKey;
    let jwks: KeyServer;
    before(async () => {
      rs = await signingKey('RS256', 'rs-1');
      es = await signingKey('ES256', 'es-1');
      ps = await signingKey('PS256', 'ps-1');
      ed = await signingKey('EdDSA', 'ed-1');
      rs512 = await signingKey('RS512', 'rs512-1');
      jwks = await keyServer([rs.jwk, es.jwk, ps.jwk, ed.jwk, rs512.jwk]);
    });
    after(async () => jwks.close());

    async function withApp(
      body: (t: OidcApp) => Promise<void>,
      options: JwtVerifierOptions = {},
      url?: string,
      agentPrefix?: string,
    ) {
      const t = await oidcApp(await backend.open(), url ?? jwks.url, options, agentPrefix);
      try {
        await body(t);
      } finally {
        await t.close();
      }
    }

    it('an RS256 token makes a full agent: contributes, owns and deletes, has reputation and an export, pro limits', () =>
      withApp(async (t) => {
        const token = await sign(rs, { sub: 'alice@idp' });
        const created = await postUnit(t, token);
        assert.equal(created.statusCode, 201, created.body);
        assert.equal(created.headers['www-authenticate'], undefined);
        assert.equal(created.headers['x-ratelimit-limit'], String(LIMITS.pro), 'default tier is pro');
        const kept = created.json().data;
        assert.equal(kept.agent_id, 'alice@idp');
        const doomed = await contributeUnit(t.app, token);

        const deleted = await call(t.app, 'DELETE', `/v1/knowledge/${doomed.id}`, { key: token });
        assert.equal(deleted.statusCode, 200, deleted.body);
        assert.deepEqual(deleted.json(), { data: { id: doomed.id, deleted: true } });

        const profile = await call(t.app, 'GET', '/v1/reputation/alice@idp');
        assert.equal(profile.statusCode, 200, profile.body);
        assert.equal(profile.json().data.agent_id, 'alice@idp');
        assert.equal(
          profile.json().data.contributions,
          1,
          'the deleted unit no longer counts (its reward was taken back)',
        );

        const exported = await call(t.app, 'GET', '/v1/export/alice@idp', { key: token });
        assert.equal(exported.statusCode, 200, exported.body);
        const doc = exported.json().data;
        assert.equal(doc.agent_id, 'alice@idp');
        assert.deepEqual(doc.keys, []);
        assert.deepEqual(
          doc.knowledge_units.map((u: { id: string }) => u.id),
          [kept.id],
        );
      }));

    it('an ES256 token works too; agent_id wins over sub and reg_tier sets the limits', () =>
      withApp(async (t) => {
        const token = await sign(es, { agent_id: 'es-agent', sub: 'someone-else', reg_tier: 'enterprise' });
        const created = await postUnit(t, token);
        assert.equal(created.statusCode, 201, created.body);
        assert.equal(created.json().data.agent_id, 'es-agent');
        assert.equal(created.headers['x-ratelimit-limit'], String(LIMITS.enterprise));
        assert.equal((await call(t.app, 'GET', '/v1/reputation/someone-else')).statusCode, 404, 'sub was not used');
        const strangersExport = await call(t.app, 'GET', '/v1/export/es-agent', {
          key: await sign(rs, { sub: 'other' }),
        });
        assert.equal(strangersExport.statusCode, 403, 'another IdP agent cannot export it');
        const strangersDelete = await call(t.app, 'DELETE', `/v1/knowledge/${created.json().data.id}`, {
          key: await sign(rs, { sub: 'other' }),
        });
        assert.equal(strangersDelete.statusCode, 403, 'nor delete its unit');
      }));

    it('maps scopes from an array or a space-separated string; admin only when the IdP grants it', () =>
      withApp(async (t) => {
        const owner = await sign(rs, { sub: 'owner' });
        const unit = await contributeUnit(t.app, owner);

        const readOnly = await sign(rs, { sub: 'reader', scopes: 'read' });
        const refused = await postUnit(t, readOnly);
        assert.equal(refused.statusCode, 403, 'authenticated, but without write scope');
        assert.equal(errorCode(refused), 'FORBIDDEN');
        assert.equal(refused.headers['www-authenticate'], undefined, 'the token itself was accepted');

        const spaced = await sign(rs, { sub: 'writer', scopes: ' read  write ' });
        assert.equal((await postUnit(t, spaced)).statusCode, 201);
        const listed = await sign(rs, { sub: 'writer', scopes: ['write', 'read', 'write'] });
        assert.equal((await postUnit(t, listed)).statusCode, 201);

        const defaults = await sign(rs, { sub: 'plain' });
        const notAdmin = await call(t.app, 'DELETE', `/v1/knowledge/${unit.id}`, { key: defaults });
        assert.equal(notAdmin.statusCode, 403, 'default scopes are read and write, never admin');

        const admin = await sign(rs, { sub: 'ops', scopes: 'read write admin' });
        const byAdmin = await call(t.app, 'DELETE', `/v1/knowledge/${unit.id}`, { key: admin });
        assert.equal(byAdmin.statusCode, 200, byAdmin.body);
      }));

    /** Each token is refused, and the verifier's logged reason (never the token) says why. */
    async function assertRefusals(t: OidcApp, cases: [string, string, RegExp][]): Promise<void> {
      for (const [what, token, reason] of cases) {
        await assertTokenRefused(t, token, what);
        assert.match(t.logs.at(-1) ?? '', reason, what);
      }
      for (const line of t.logs)
        for (const [, token] of cases) assert.ok(!line.includes(token), 'tokens never reach the logs');
    }

    it('refuses tokens with the wrong audience, issuer or times, or with unusable claims', () =>
      withApp(async (t) => {
        const claimsProblem = /"reason":"claims"/;
        await assertRefusals(t, [
          ['wrong audience', await sign(rs, { aud: 'another-service' }), /unexpected \\"aud\\" claim/],
          ['wrong issuer', await sign(rs, { iss: 'https://evil.example.test/' }), /unexpected \\"iss\\" claim/],
          ['issuer without its trailing slash', await sign(rs, { iss: 'https://idp.example.test' }), /\\"iss\\"/],
          ['expired', await sign(rs, { iat: nowSec() - 7200, exp: nowSec() - 3600 }), /ERR_JWT_EXPIRED/],
          ['not yet valid', await sign(rs, { nbf: nowSec() + 3600 }), /\\"nbf\\" claim timestamp check failed/],
          ['no exp', await sign(rs, { exp: undefined }), /missing required \\"exp\\" claim/],
          ['neither agent_id nor sub', await sign(rs, { sub: undefined }), /neither agent_id nor sub/],
          ['empty sub', await sign(rs, { sub: '' }), /sub must be a string/],
          ['agent_id present but empty (no fallback to sub)', await sign(rs, { agent_id: '' }), /agent_id must be/],
          ['agent_id not a string', await sign(rs, { agent_id: 42 }), /agent_id must be a string/],
          ['agent_id with a control character', await sign(rs, { agent_id: 'bad\nid' }), /agent_id contains control/],
          ['agent_id over 256 characters', await sign(rs, { agent_id: 'a'.repeat(257) }), /agent_id must be/],
          ['sub with a zero-width space', await sign(rs, { sub: 'alice\u200b' }), /sub contains control, format/],
          ['sub with a bidi override', await sign(rs, { sub: 'ali\u202ece' }), /sub contains control, format/],
          ['sub with a byte-order mark', await sign(rs, { sub: '\ufeffalice' }), /sub contains control, format/],
          ['sub with a line separator', await sign(rs, { sub: 'a\u2028b' }), /sub contains control, format/],
          ['sub with a C1 control', await sign(rs, { sub: 'a\u0085b' }), /sub contains control, format/],
          ['sub with a leading space', await sign(rs, { sub: ' alice' }), /leading or trailing whitespace/],
          [
            'sub with a trailing no-break space',
            await sign(rs, { sub: 'alice\u00a0' }),
            /leading or trailing whitespace/,
          ],
          ['agent_id with a trailing tab', await sign(rs, { agent_id: 'alice\t' }), /agent_id contains control/],
          ['sub "."', await sign(rs, { sub: '.' }), /sub may not be/],
          ['sub ".."', await sign(rs, { sub: '..' }), /sub may not be/],
          [
            'typ logout+jwt (a logout token)',
            await sign(rs, {}, { typ: 'logout+jwt' }),
            /typ \\"logout\+jwt\\" is not JWT or at\+jwt/,
          ],
          [
            'typ application/logout+jwt',
            await sign(rs, {}, { typ: 'application/logout+jwt' }),
            /is not JWT or at\+jwt/,
          ],
          ['typ secevent+jwt', await sign(rs, {}, { typ: 'secevent+jwt' }), /is not JWT or at\+jwt/],
          ['typ JOSE', await sign(rs, {}, { typ: 'JOSE' }), /is not JWT or at\+jwt/],
          ['iat an hour in the future', await sign(rs, { iat: nowSec() + 3600 }), /iat is in the future/],
          ['iat just past the clock tolerance', await sign(rs, { iat: nowSec() + 35 }), /iat is in the future/],
          ['unknown reg_tier', await sign(rs, { reg_tier: 'platinum' }), /reg_tier must be one of/],
          ['anonymous reg_tier', await sign(rs, { reg_tier: 'anonymous' }), /reg_tier/],
          ['null reg_tier', await sign(rs, { reg_tier: null }), /reg_tier/],
          ['unknown scope', await sign(rs, { scopes: ['read', 'root'] }), /scopes must be/],
          ['unknown scope in a string', await sign(rs, { scopes: 'read superuser' }), /scopes must be/],
          ['empty scopes', await sign(rs, { scopes: [] }), claimsProblem],
          ['scopes of the wrong type', await sign(rs, { scopes: 7 }), claimsProblem],
          ['not a JWT', 'not-a-jwt', /ERR_JWS_INVALID/],
        ]);
        // The boundary that must pass: 256 characters.
        assert.equal((await postUnit(t, await sign(rs, { agent_id: 'a'.repeat(256) }))).statusCode, 201);
      }));

    it('accepts an absent typ, JWT or at+jwt in any case, and an iat within the clock tolerance', () =>
      withApp(async (t) => {
        const headers = [
          {},
          { typ: 'JWT' },
          { typ: 'jwt' },
          { typ: 'at+jwt' },
          { typ: 'AT+JWT' },
          { typ: 'application/at+jwt' },
        ];
        for (const header of headers) {
          const created = await postUnit(t, await sign(rs, { sub: 'typed' }, header));
          assert.equal(created.statusCode, 201, `${JSON.stringify(header)}: ${created.body}`);
        }
        assert.equal((await postUnit(t, await sign(rs, { sub: 'skewed', iat: nowSec() + 20 }))).statusCode, 201);
      }));

    it('takes agent ids of almost any text as given: pipes, slashes, accents, dots inside', () =>
      withApp(async (t) => {
        for (const id of ['auth0|123', 'google-oauth2/1234', 'é'.repeat(200), '...', 'a b', 'Ω:x']) {
          const created = await postUnit(t, await sign(rs, { sub: id }));
          assert.equal(created.statusCode, 201, `${JSON.stringify(id)}: ${created.body}`);
          assert.equal(created.json().data.agent_id, id);
          const profile = await call(t.app, 'GET', `/v1/reputation/${encodeURIComponent(id)}`);
          assert.equal(profile.json().data.agent_id, id, `${JSON.stringify(id)} is reachable by its URL`);
        }
      }));

    it('accepts the other allowed algorithms: PS256 and EdDSA', () =>
      withApp(async (t) => {
        for (const key of [ps, ed]) {
          const created = await postUnit(t, await sign(key, { sub: `by-${key.alg}` }));
          assert.equal(created.statusCode, 201, `${key.alg}: ${created.body}`);
          assert.equal(created.json().data.agent_id, `by-${key.alg}`);
        }
      }));

    it('refuses forged tokens: alg none, HS256 keyed with the public key, foreign keys, embedded keys, tampering', () =>
      withApp(async (t) => {
        const payload = claims({ sub: 'mallory' });
        const spki = await exportSPKI(rs.publicKey);
        const attacker = await signingKey('RS256', 'rs-1'); // same kid as the real key
        const genuine = await sign(rs, { sub: 'mallory' });
        const [head, body, sig] = genuine.split('.');
        const hmac = (secret: string, kid?: string) =>
          new SignJWT(payload).setProtectedHeader({ alg: 'HS256', kid }).sign(new TextEncoder().encode(secret));
        const notAllowed = /ERR_JOSE_ALG_NOT_ALLOWED/;
        const badSignature = /ERR_JWS_SIGNATURE_VERIFICATION_FAILED/;

        await assertRefusals(t, [
          ['alg none', `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(payload)}.`, notAllowed],
          ['alg none with a kid', `${b64url({ alg: 'none', kid: rs.kid })}.${b64url(payload)}.`, notAllowed],
          ['alg None', `${b64url({ alg: 'None' })}.${b64url(payload)}.`, notAllowed],
          ['HS256 keyed with the PEM public key', await hmac(spki, rs.kid), notAllowed],
          ['HS256 keyed with the PEM public key, no kid', await hmac(spki), notAllowed],
          ['HS256 keyed with the JWK', await hmac(JSON.stringify(rs.jwk), rs.kid), notAllowed],
          ['RS512, published but outside the allow-list', await sign(rs512), notAllowed],
          [
            'signed by a key not in the set',
            await sign(await signingKey('RS256', 'stranger')),
            /ERR_JWKS_NO_MATCHING_KEY/,
          ],
          ['signed by another key under a known kid', await sign(attacker), badSignature],
          ['carrying its own key in the header', await sign(attacker, {}, { jwk: attacker.jwk }), badSignature],
          ['payload swapped after signing', `${head}.${b64url({ ...payload, scopes: 'admin' })}.${sig}`, badSignature],
          ['signature stripped', `${head}.${body}.`, badSignature],
          ['ES256 token naming the RSA key', await sign(es, {}, { kid: rs.kid }), /ERR_JWKS_NO_MATCHING_KEY/],
        ]);
        assert.equal(
          (await call(t.app, 'GET', '/v1/reputation/mallory')).statusCode,
          404,
          'no forged token claimed the id',
        );
      }));

    it('accepts a token without kid when the set holds several keys of its type', async () => {
      const second = await signingKey('RS256', 'rs-2');
      const server = await keyServer([rs.jwk, second.jwk, es.jwk]);
      try {
        await withApp(
          async (t) => {
            assert.equal(
              (await postUnit(t, await sign(second, { sub: 'kidless' }, { kid: undefined }))).statusCode,
              201,
            );
          },
          {},
          server.url,
        );
      } finally {
        await server.close();
      }
    });

    it('follows key rotation: an unknown kid refetches the set, and removed keys stop working', async () => {
      const server = await keyServer([rs.jwk]);
      const next = await signingKey('ES256', 'es-next');
      try {
        await withApp(
          async (t) => {
            assert.equal((await postUnit(t, await sign(rs, { sub: 'rotating' }))).statusCode, 201);
            await assertTokenRefused(t, await sign(next, { sub: 'rotating' }), 'kid not published yet');
            server.keys = [next.jwk];
            const hitsBefore = server.hits;
            assert.equal(
              (await postUnit(t, await sign(next, { sub: 'rotating' }))).statusCode,
              201,
              'new key accepted',
            );
            assert.equal(server.hits, hitsBefore + 1, 'the unknown kid made one refetch');
            await assertTokenRefused(t, await sign(rs, { sub: 'rotating' }), 'retired key');
          },
          {},
          server.url,
        );
      } finally {
        await server.close();
      }
    });

    it("picks up a rotated key after the cooldown on the verifier's clock: refused right after a fetch, accepted once it has passed", async () => {
      // The verifier's clock, moved by the test alone: however slowly a loaded machine runs the requests
      // below, no cooldown passes between them unless the test says so.
      const cooldownMs = 30_000;
      let clock = Date.now();
      const server = await keyServer([rs.jwk]);
      const next = await signingKey('ES256', 'es-rotated');
      try {
        await withApp(
          async (t) => {
            assert.equal((await postUnit(t, await sign(rs, { sub: 'rotating' }))).statusCode, 201);
            assert.equal(server.hits, 1);
            server.keys = [rs.jwk, next.jwk];
            clock += cooldownMs - 1;
            await assertTokenRefused(t, await sign(next, { sub: 'rotating' }), 'a new kid within the cooldown');
            assert.equal(server.hits, 1, 'no refetch within the cooldown');

            clock += 1;
            const created = await postUnit(t, await sign(next, { sub: 'rotating' }));
            assert.equal(created.statusCode, 201, `the new key once the cooldown has passed: ${created.body}`);
            assert.equal(server.hits, 2, 'exactly one refetch');
            assert.equal(
              (await postUnit(t, await sign(rs, { sub: 'rotating' }))).statusCode,
              201,
              'the old key, still published',
            );
          },
          { cooldownMs, now: () => new Date(clock) },
          server.url,
        );
      } finally {
        await server.close();
      }
    });

    it('does not let a flood of unknown kids hammer the provider (cooldown)', async () => {
      const server = await keyServer([rs.jwk]);
      try {
        await withApp(
          async (t) => {
            assert.equal((await postUnit(t, await sign(rs))).statusCode, 201);
            assert.equal(server.hits, 1);
            for (let i = 0; i < 5; i++) {
              await assertTokenRefused(t, await sign(rs, {}, { kid: `bogus-${i}` }), `bogus kid ${i}`);
            }
            assert.equal(server.hits, 1, 'no refetch within the cooldown');
            assert.equal((await postUnit(t, await sign(rs))).statusCode, 201, 'the cached key still works');
          },
          { cooldownMs: 60_000 },
          server.url,
        );
      } finally {
        await server.close();
      }
    });

    it('keeps API keys on the key layer while OIDC is on', () =>
      withApp(async (t) => {
        const key = await register(t.app, 'keyed', ['read', 'write'], 'free');
        const created = await call(t.app, 'POST', '/v1/knowledge', { key, body: unitBody() });
        assert.equal(created.statusCode, 201, created.body);
        assert.equal(created.json().data.agent_id, 'keyed');
        assert.equal(created.headers['x-ratelimit-limit'], String(LIMITS.free));
        assertRefused(
          await call(t.app, 'POST', '/v1/knowledge', { key: `reg_${'x'.repeat(40)}`, body: {} }),
          401,
          'unknown key',
        );
        assert.equal(t.jwtCalls(), 0, 'reg_ tokens never reach the JWT verifier');
        assert.equal(t.verifier.status().fetches, 0);
      }));

    describe('when the key-set endpoint is down', () => {
      async function assertOutage(t: OidcApp, what: string): Promise<void> {
        await assertTokenRefused(t, await sign(rs, { sub: 'during-outage' }), what);
        const key = await register(t.app, 'key-holder');
        const created = await postUnit(t, key);
        assert.equal(created.statusCode, 201, `${what}: API keys are unaffected`);
      }

      it('refuses JWTs while it answers 500, and accepts them again once it recovers', async () => {
        const server = await keyServer([rs.jwk]);
        try {
          await withApp(
            async (t) => {
              server.mode = 'error';
              await assertOutage(t, 'HTTP 500');
              server.mode = 'ok';
              assert.equal((await postUnit(t, await sign(rs))).statusCode, 201, 'recovered');
            },
            {},
            server.url,
          );
        } finally {
          await server.close();
        }
      });

      it('refuses JWTs when nothing listens there any more', async () => {
        const server = await keyServer([rs.jwk]);
        await server.close();
        await withApp(async (t) => assertOutage(t, 'connection refused'), {}, server.url);
      });

      // The test's own timeout only turns a regression (a hang) into a failure; nothing here is timed.
      it('refuses JWTs instead of hanging when it never answers (timeout)', { timeout: 20_000 }, async () => {
        const server = await keyServer([rs.jwk]);
        server.mode = 'hang';
        try {
          await withApp(async (t) => assertOutage(t, 'no answer'), { timeoutMs: 200 }, server.url);
        } finally {
          await server.close();
        }
      });

      it('backs off after a failure instead of fetching for every request', async () => {
        const server = await keyServer([rs.jwk]);
        server.mode = 'error';
        try {
          await withApp(
            async (t) => {
              for (let i = 0; i < 5; i++) await assertTokenRefused(t, await sign(rs), `attempt ${i}`);
              assert.equal(server.hits, 1, 'one fetch, then the back-off answers');
              assert.equal(t.verifier.status().failures, 1);
              assert.match(t.verifier.status().lastFailure ?? '', /HTTP 500/);
            },
            { failureBackoffMs: 60_000 },
            server.url,
          );
        } finally {
          await server.close();
        }
      });

      it('keeps accepting tokens signed with keys it already holds', async () => {
        const server = await keyServer([rs.jwk]);
        try {
          await withApp(
            async (t) => {
              assert.equal((await postUnit(t, await sign(rs))).statusCode, 201);
              server.mode = 'error';
              assert.equal((await postUnit(t, await sign(rs))).statusCode, 201, 'cached keys survive an outage');
              await assertTokenRefused(t, await sign(es), 'a kid it does not hold needs the endpoint');
            },
            {},
            server.url,
          );
        } finally {
          await server.close();
        }
      });
    });

    describe('the first kind of credential to use an agent id owns it', () => {
      it('an IdP user cannot act as an agent registered with an API key', () =>
        withApp(async (t) => {
          const key = await register(t.app, 'shared-name');
          const unit = await contributeUnit(t.app, key);
          const impostor = await sign(rs, { sub: 'shared-name', scopes: 'read write' });
          await assertTokenRefused(t, impostor, 'JWT for a key-registered id');
          assertRefused(await call(t.app, 'DELETE', `/v1/knowledge/${unit.id}`, { key: impostor }), 401, 'delete');
          assertRefused(await call(t.app, 'GET', '/v1/export/shared-name', { key: impostor }), 401, 'export');
          assert.equal((await postUnit(t, key)).statusCode, 201, 'the key still works');
          for (let i = 0; i < 5; i++) await assertTokenRefused(t, impostor, `retry ${i}`);
          const warnings = t.logs.filter(
            (line) => line.startsWith('["warn"') && line.includes('agent_id_owned_by_api_key'),
          );
          assert.equal(warnings.length, 1, 'one warning per id, not one per request');
          assert.match(warnings[0]!, /"agentId":"shared-name"/);
        }));

      it('an id claimed through the IdP cannot be registered for a key by anyone else', () =>
        withApp(async (t) => {
          const token = await sign(rs, { sub: 'idp-only' });
          assert.equal((await call(t.app, 'GET', '/v1/knowledge', { key: token })).statusCode, 200);
          const profile = await call(t.app, 'GET', '/v1/reputation/idp-only');
          assert.equal(profile.statusCode, 200, 'first use claims the id: a profile with score 0');
          assert.equal(profile.json().data.score, 0);

          // No API key for an IdP agent, not even for itself or from an admin: no key outlives the
          // user's standing at the IdP.
          const body = { agent_id: 'idp-only', scopes: ['read', 'write'], tier: 'free' };
          const callers: [string, string | undefined][] = [
            ['a stranger', undefined],
            ['another IdP user', await sign(rs, { sub: 'x' })],
            ['the agent itself', token],
            ['an IdP admin', await sign(rs, { sub: 'idp-admin', scopes: 'read write admin' })],
          ];
          for (const [who, key] of callers) {
            const refused = await call(t.app, 'POST', '/v1/auth/register', { body, key });
            assert.equal(refused.statusCode, 403, `${who}: ${refused.body}`);
            assert.deepEqual(refused.json(), {
              error: {
                code: 'FORBIDDEN',
                message:
                  'agent_id idp-only is an identity-provider agent: it authenticates with its tokens, and no API key ' +
                  'is issued for it, so access ends when the identity provider stops issuing them',
              },
            });
          }
          const exported = await call(t.app, 'GET', '/v1/export/idp-only', { key: token });
          assert.deepEqual(exported.json().data.keys, [], 'no key was issued');
          assert.equal((await postUnit(t, token)).statusCode, 201, 'the token keeps working');
        }));

      it("without REG_OIDC_AGENT_PREFIX, a key can pre-claim an IdP user's id, which locks that user out", () =>
        withApp(async (t) => {
          const squatter = await register(t.app, 'carol@corp.example');
          await assertTokenRefused(
            t,
            await sign(rs, { sub: 'carol@corp.example' }),
            'the real user after the pre-claim',
          );
          assert.equal((await postUnit(t, squatter)).json().data.agent_id, 'carol@corp.example');
        }));

      it('with REG_OIDC_AGENT_PREFIX, token ids carry the prefix and no key can be registered under it', () =>
        withApp(
          async (t) => {
            const unprefixed = await register(t.app, 'carol@corp.example');
            const token = await sign(rs, { sub: 'carol@corp.example' });
            const created = await postUnit(t, token);
            assert.equal(created.statusCode, 201, `a same-named key agent does not lock the user out: ${created.body}`);
            assert.equal(created.json().data.agent_id, 'idp:carol@corp.example');
            assert.equal(
              (await postUnit(t, unprefixed)).json().data.agent_id,
              'carol@corp.example',
              'two distinct agents',
            );

            const admin = await sign(rs, { sub: 'ops', scopes: 'read write admin' });
            for (const [agentId, key] of [
              ['idp:dave@corp.example', undefined],
              ['IDP:dave@corp.example', undefined],
              ['iDp:x', undefined],
              ['1DP:x', undefined],
              ['ldp:dave@corp.example', undefined],
              ['idp:', undefined],
              ['idp:carol@corp.example', token],
              ['idp:erin', admin],
            ] as const) {
              const refused = await call(t.app, 'POST', '/v1/auth/register', {
                body: { agent_id: agentId, scopes: ['read'], tier: 'free' },
                key,
              });
              assert.equal(refused.statusCode, 400, `${agentId}: ${refused.body}`);
              assert.deepEqual(refused.json(), {
                error: {
                  code: 'VALIDATION_ERROR',
                  message:
                    'agent_id must not start with "idp:", or with anything that looks like it: that prefix is reserved ' +
                    'for identity-provider agents',
                },
              });
            }
            assert.equal(
              (await call(t.app, 'GET', '/v1/reputation/idp:dave@corp.example')).statusCode,
              404,
              'nothing claimed',
            );
            assert.equal(
              (await register(t.app, 'idpx:dave')).startsWith('reg_'),
              true,
              'only the exact prefix is reserved',
            );

            // The whole id, prefix included, stays within 256 characters.
            assert.equal((await postUnit(t, await sign(rs, { sub: 'a'.repeat(252) }))).statusCode, 201);
            await assertTokenRefused(t, await sign(rs, { sub: 'a'.repeat(253) }), 'prefix + claim over 256');
            assert.match(t.logs.at(-1)!, /sub must be a string of 1 to 252 characters/);
          },
          {},
          undefined,
          'idp:',
        ));
    });

    describe('when the database fails during a token check', () => {
      const outages: [string, (store: Store) => void, number, string][] = [
        [
          'agentOrigin is unavailable',
          (store) => (store.agentOrigin = () => Promise.reject(new StoreUnavailableError('db down'))),
          503,
          'UNAVAILABLE',
        ],
        [
          'claimOidcAgent is unavailable',
          (store) => (store.claimOidcAgent = () => Promise.reject(new StoreUnavailableError('db down'))),
          503,
          'UNAVAILABLE',
        ],
        [
          'agentOrigin fails unexpectedly',
          (store) => (store.agentOrigin = () => Promise.reject(new Error('disk I/O error'))),
          500,
          'INTERNAL_ERROR',
        ],
      ];
      for (const [what, breakStore, status, code] of outages) {
        it(`answers ${status}, not 401 invalid_token, when ${what}`, () =>
          withApp(async (t) => {
            breakStore(t.store);
            for (const res of [
              await postUnit(t, await sign(rs, { sub: 'during-db-outage' })),
              await call(t.app, 'GET', '/v1/knowledge', { key: await sign(rs, { sub: 'during-db-outage' }) }),
            ]) {
              assert.equal(res.statusCode, status, res.body);
              assert.equal(errorCode(res), code);
              assert.equal(res.headers['www-authenticate'], undefined, 'the token was not judged bad');
              if (status === 503) assert.equal(res.headers['retry-after'], '5');
            }
          }));
      }
    });

    it('refuses every token once the verifier is closed', () =>
      withApp(async (t) => {
        const token = await sign(rs);
        assert.equal((await postUnit(t, token)).statusCode, 201);
        t.verifier.close();
        await assertTokenRefused(t, token, 'after close');
      }));
  });
}

// Once, not per backend: it waits out the real default timeout, and the store plays no part.
describe('OIDC with the default verifier options', () => {
  it(
    'answers within the default key-set timeout when the endpoint never answers, then fails fast',
    { timeout: 20_000 },
    async () => {
      assert.equal(DEFAULT_JWKS_TIMEOUT_MS, 2_500, 'docs/oidc.md promises 2.5 s');
      const key = await signingKey('RS256', 'rs-default');
      const server = await keyServer([key.jwk]);
      server.mode = 'hang';
      const store = openSqliteStore('sqlite::memory:');
      const oidc: OidcConfig = { issuer: ISSUER, audience: AUDIENCE, jwksUrl: server.url };
      const verifier = createJwtVerifier(oidc, store);
      const t = await testApp(store, { config: testConfig({ oidc }), jwt: verifier });
      try {
        const started = performance.now();
        assertRefused(await postUnit(t, await sign(key, { sub: 'patient' })), 401, 'first request');
        const waited = performance.now() - started;
        assert.ok(waited >= DEFAULT_JWKS_TIMEOUT_MS - 50, `waited ${waited} ms: the fetch was given its full timeout`);
        assert.ok(waited < DEFAULT_JWKS_TIMEOUT_MS + 1_000, `waited ${waited} ms: no longer than the default timeout`);

        const again = performance.now();
        assertRefused(await postUnit(t, await sign(key, { sub: 'patient' })), 401, 'second request');
        assert.ok(performance.now() - again < 500, 'the back-off answers at once instead of waiting again');
        assert.equal(server.hits, 1);
      } finally {
        verifier.close();
        await t.close();
        await server.close();
      }
    },
  );
});

describe('OIDC configuration', () => {
  const base = { REG_DATABASE_URL: 'sqlite::memory:' };
  const full = {
    REG_OIDC_ISSUER: ISSUER,
    REG_OIDC_AUDIENCE: AUDIENCE,
    REG_OIDC_JWKS_URL: 'https://idp.example.test/jwks',
  };

  it('is off with none of the variables, on with all three, with an optional agent prefix', () => {
    assert.equal(loadConfig(base).oidc, null);
    assert.deepEqual(loadConfig({ ...base, ...full }).oidc, {
      issuer: ISSUER,
      audience: AUDIENCE,
      jwksUrl: full.REG_OIDC_JWKS_URL,
    });
    assert.deepEqual(loadConfig({ ...base, ...full, REG_OIDC_AGENT_PREFIX: 'idp:' }).oidc?.agentPrefix, 'idp:');
    assert.equal(loadConfig({ ...base, ...full, REG_OIDC_AGENT_PREFIX: '' }).oidc?.agentPrefix, undefined);
  });

  // With one or two of the three set, JWT authentication is disabled and API keys still apply.
  it('starts with OIDC off when only some of the three are set, warning and naming the missing ones', () => {
    const off =
      'so identity-provider (JWT) authentication is OFF and only API keys apply (set all three to turn it on)';
    const cases: [Record<string, string>, string][] = [
      [
        { REG_OIDC_ISSUER: ISSUER, REG_OIDC_AUDIENCE: AUDIENCE },
        `OIDC is only partly configured: REG_OIDC_JWKS_URL is missing, ${off}`,
      ],
      [
        { REG_OIDC_JWKS_URL: full.REG_OIDC_JWKS_URL },
        `OIDC is only partly configured: REG_OIDC_ISSUER, REG_OIDC_AUDIENCE are missing, ${off}`,
      ],
      [{ ...full, REG_OIDC_AUDIENCE: '  ' }, `OIDC is only partly configured: REG_OIDC_AUDIENCE is missing, ${off}`],
      [
        { REG_OIDC_AGENT_PREFIX: 'idp:' },
        `REG_OIDC_AGENT_PREFIX is set, but REG_OIDC_ISSUER, REG_OIDC_AUDIENCE, REG_OIDC_JWKS_URL are missing, ${off}`,
      ],
    ];
    for (const [env, message] of cases) {
      const config = loadConfig({ ...base, ...env });
      assert.equal(config.oidc, null);
      assert.deepEqual(config.warnings, [message]);
    }
  });

  it('refuses an agent prefix with whitespace, invisible characters or over 64 characters', () => {
    for (const prefix of ['idp: ', ' idp', 'i\u200bdp:', 'a\nb', 'p'.repeat(65)]) {
      assert.throws(
        () => loadConfig({ ...base, ...full, REG_OIDC_AGENT_PREFIX: prefix }),
        /REG_OIDC_AGENT_PREFIX must be 1 to 64 characters/,
      );
    }
  });
});
