// Property-based fuzzing of bearer JWTs with OIDC on, against a real key-set endpoint on 127.0.0.1 that
// serves RS256, ES256 and EdDSA keys. Tokens come from tokens.ts: signed by a published key with odd
// headers and claims (non-string sub, wrong types for scopes and reg_tier, unicode and huge agent ids,
// expired, not yet valid, wrong issuer or audience), valid tokens changed by one character, alg none,
// HMAC with a public secret, keys outside the set, transplanted signatures and random JWT-shaped parts;
// plus the Authorization headers of the API-key property. Each goes to one route (tokens.ts's oracle says
// whether it must be refused, must be accepted, or may go either way). Checked:
//
//   - never a 500; every error is the documented envelope;
//   - a token that does not verify leaves the request anonymous (reads answer, writes 401) with
//     `WWW-Authenticate: Bearer error="invalid_token"`, anonymous rate limits, and changes no stored data;
//   - a token that verifies acts as its agent with its scopes and tier, and a refused request of that
//     agent changes nothing but its first-use claim of the agent id (docs/oidc.md, "Identity rule").
//
// Runs on SQLite, and on PostgreSQL when REG_TEST_DATABASE_URL is set; runs and seed as in harness.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { OidcConfig } from '../../src/config/index.js';
import { createJwtVerifier } from '../../src/http/oidc.js';
import { register, testConfig } from '../helpers/app.js';
import * as A from './arbitraries.js';
import {
  aimedRequest,
  announce,
  bearer,
  buildWorld,
  checkNoPollution,
  checkResponse,
  checkTreatedAsAnonymous,
  describeChanges,
  describeExchange,
  expectStatus,
  fcParams,
  fingerprintChanges,
  fuzzBackends,
  histogram,
  newUnit,
  seen,
  send,
  takeFingerprint,
  type Aimed,
  type Res,
  type World,
} from './harness.js';
import {
  AUDIENCE,
  buildToken,
  expectation,
  IDP_AGENTS,
  ISSUER,
  keySetServer,
  makeKeys,
  tokenRecipe,
  validToken,
  type Expectation,
  type Identity,
  type TokenRecipe,
} from './tokens.js';

/** Distinct per tier, and too high to be reached, so the X-RateLimit-Limit header names the tier. */
const LIMITS = { anonymous: 1_000_000, free: 2_000_000, pro: 3_000_000, enterprise: 4_000_000 };

type Credential = { kind: 'jwt'; token: TokenRecipe } | { kind: 'header'; header: A.AuthRecipe };

const credential: fc.Arbitrary<Credential> = fc.oneof(
  { weight: 6, arbitrary: tokenRecipe.map((token): Credential => ({ kind: 'jwt', token })) },
  { weight: 1, arbitrary: A.authRecipe.map((header): Credential => ({ kind: 'header', header })) },
);

const keys = makeKeys();
const nowSec = () => Math.floor(Date.now() / 1000);

/** The statuses an accepted identity gets from each aimed request (World: `unit` is writer's, `foreignUnit` other's). */
function acceptedStatus(target: A.AuthTarget, id: Identity): number {
  const admin = id.scopes.includes('admin');
  switch (target) {
    case 'listUnits':
    case 'listSkills':
    case 'getUnit':
    case 'reputation':
    case 'validate':
      return 200;
    case 'getPrivateSkill':
      return admin ? 200 : 404;
    case 'postUnit':
    case 'postSkill':
      return id.scopes.includes('write') ? 201 : 403;
    case 'delete':
    case 'export':
      return admin ? 200 : 403;
    case 'revoke':
      return admin ? 200 : 404;
    case 'registerExisting':
    case 'registerAdmin':
      return admin ? 201 : 409;
  }
}

interface OidcWorld {
  w: World;
  /** IdP agent ids that have been used (and so claimed) by an accepted token. */
  claimed: Set<string>;
  anonymousSkills: number;
}

async function anonymousSkillTotal(w: World): Promise<number> {
  return (await send(w.app, { method: 'GET', url: '/v1/skills?limit=100', headers: {} })).json().total as number;
}

function rateLimitCheck(aimed: Aimed, res: Res, tier: keyof typeof LIMITS, why: string): void {
  if (aimed.s.url === '/v1/auth/register') return; // exempt
  const limit = res.headers['x-ratelimit-limit'];
  if (limit !== String(LIMITS[tier])) {
    throw new Error(
      `X-RateLimit-Limit ${String(limit)}, expected the ${tier} limit ${LIMITS[tier]} (${why})${describeExchange(aimed.s, res)}`,
    );
  }
}

/** After an accepted admin token deleted writer's unit or revoked writer's key, the world gets new ones. */
async function repair(o: OidcWorld, target: A.AuthTarget, res: Res): Promise<void> {
  const { w } = o;
  if (target === 'revoke' && res.statusCode === 200) {
    w.writer.key = await register(w.app, 'writer', ['read', 'write'], 'free', w.admin.key);
    w.writer.prefix = w.writer.key.slice(0, 8);
  }
  if (target === 'delete' && res.statusCode === 200) {
    w.liveUnits.delete(w.unit);
    w.deletedUnits.unshift(w.unit);
    w.unit = await newUnit(w.app, w.writer.key, 'Replacement unit of writer');
    w.liveUnits.set(w.unit, 'writer');
  }
  w.fingerprint = await takeFingerprint(w);
  o.anonymousSkills = await anonymousSkillTotal(w);
}

async function checkAccepted(
  o: OidcWorld,
  target: A.AuthTarget,
  aimed: Aimed,
  res: Res,
  changes: Map<string, string>,
  expected: Expectation,
  explain: string,
): Promise<void> {
  const { w } = o;
  const s = aimed.s;
  const identity = expected.verdict === 'refuse' ? undefined : expected.identity;
  // A refused request (or any read) of an accepted agent may add that agent's id, on its first use only.
  const fresh = identity === undefined || !o.claimed.has(identity.agentId);
  if (res.statusCode >= 400 || s.method === 'GET') {
    const extra = [...changes.keys()].filter(
      (k) => !((k === 'table agents' || k === 'table agent_skeletons') && fresh),
    );
    if (extra.length > 0) {
      throw new Error(
        `a ${res.statusCode} to an accepted token changed stored data: ${describeChanges(changes)}${explain}${describeExchange(s, res)}`,
      );
    }
  }
  if (identity === undefined) return;
  o.claimed.add(identity.agentId);
  expectStatus(
    s,
    res,
    [acceptedStatus(target, identity)],
    `${target} as ${identity.agentId} with scopes ${identity.scopes.join(' ')}${explain}`,
  );
  rateLimitCheck(aimed, res, identity.tier, `accepted as ${identity.agentId}, tier ${identity.tier}`);
  if ((target === 'postUnit' || target === 'postSkill') && res.statusCode === 201) {
    assert.equal(
      res.json().data.agent_id,
      identity.agentId,
      `contribution credited to the wrong agent${explain}${describeExchange(s, res)}`,
    );
  }
  // The agent id round-trips through the store unchanged (unicode and all), and is a visible agent.
  const profile = await send(w.app, {
    method: 'GET',
    url: `/v1/reputation/${A.pctEncode(identity.agentId)}`,
    headers: {},
  });
  if (profile.statusCode !== 200 || profile.json().data.agent_id !== identity.agentId) {
    throw new Error(
      `the profile of accepted agent ${JSON.stringify(identity.agentId)}: ${profile.statusCode} ${profile.body.slice(0, 300)}${explain}`,
    );
  }
}

for (const b of fuzzBackends()) {
  describe(`fuzz: bearer JWTs with OIDC on [${b.name}]`, { skip: b.skip }, () => {
    it('never 500, always the envelope; a token that does not verify is anonymous, says invalid_token and changes nothing', async (t) => {
      announce(t, b.runs);
      const server = await keySetServer(keys);
      const oidc: OidcConfig = { issuer: ISSUER, audience: AUDIENCE, jwksUrl: server.url };
      const store = await b.open();
      // No cooldown: every unknown kid fetches the key set again, so the fetch path is fuzzed too.
      const verifier = createJwtVerifier(oidc, store, { cooldownMs: 0, failureBackoffMs: 0 });
      const verdicts = new Map<string, number>();
      let o: OidcWorld | undefined;
      try {
        const w = await buildWorld(store, {
          config: testConfig({ openAdminRegistration: true, oidc, rateLimits: LIMITS }),
          jwt: verifier,
        });
        // First use claims the IdP agents, so that later refused requests of theirs must change nothing.
        for (const who of IDP_AGENTS) {
          const res = await send(w.app, {
            method: 'GET',
            url: '/v1/knowledge?limit=1',
            headers: bearer(validToken(keys, who, nowSec())),
          });
          assert.equal(res.headers['www-authenticate'], undefined, `a valid token of ${who} was refused: ${res.body}`);
        }
        w.fingerprint = await takeFingerprint(w);
        o = { w, claimed: new Set(IDP_AGENTS), anonymousSkills: await anonymousSkillTotal(w) };
        const world = o;

        await fc.assert(
          fc.asyncProperty(credential, A.authTarget, async (cred, target) => {
            let authorization: string;
            let expected: Expectation;
            if (cred.kind === 'jwt') {
              const now = nowSec();
              const built = buildToken(cred.token, keys, now);
              authorization = `Bearer ${built.token}`;
              expected = expectation(cred.token, built, now);
            } else {
              const a = cred.header;
              authorization =
                a.kind === 'literal'
                  ? a.value
                  : a.kind === 'revoked'
                    ? `Bearer ${w.revokedKey}`
                    : A.mangleKey(a.who === 'writer' ? w.writer.key : w.admin.key, a.how);
              expected = { verdict: 'refuse', why: 'not a working API key, nor a JWT of the key set' };
            }
            verdicts.set(expected.verdict, (verdicts.get(expected.verdict) ?? 0) + 1);
            const explain = `\n  expected: ${expected.verdict} (${'why' in expected ? expected.why : JSON.stringify(expected.identity)})`;

            const aimed = aimedRequest(w, target, authorization);
            const res = await send(w.app, aimed.s);
            seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
            checkResponse(aimed.s, res);
            checkNoPollution(aimed.s);
            const after = await takeFingerprint(w);
            const changes = fingerprintChanges(w.fingerprint, after);
            w.fingerprint = after;

            const refused = String(res.headers['www-authenticate'] ?? '').includes('error="invalid_token"');
            if (expected.verdict === 'refuse' && !refused) {
              throw new Error(
                `a token that must not authenticate was accepted${explain}${describeExchange(aimed.s, res)}`,
              );
            }
            if (expected.verdict === 'accept' && refused)
              throw new Error(`a valid token was refused${explain}${describeExchange(aimed.s, res)}`);
            if (refused) {
              checkTreatedAsAnonymous(target, aimed, res, world.anonymousSkills);
              rateLimitCheck(aimed, res, 'anonymous', 'a refused token');
              if (changes.size > 0) {
                throw new Error(
                  `a request with a refused token (${res.statusCode}) changed stored data: ${describeChanges(changes)}${explain}${describeExchange(aimed.s, res)}`,
                );
              }
              return;
            }
            await checkAccepted(world, target, aimed, res, changes, expected, explain);
            if (changes.size > 0) await repair(world, target, res);
          }),
          fcParams(b.runs),
        );
      } finally {
        t.diagnostic(`statuses: ${histogram()}`);
        t.diagnostic(
          `oracle: ${[...verdicts].map(([k, n]) => `${k}×${n}`).join(' ')}; key-set fetches: ${server.hits()}`,
        );
        verifier.close();
        if (o) await o.w.t.close();
        else await store.close();
        await server.close();
      }
    });
  });
}
