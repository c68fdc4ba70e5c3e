// The hostile requests of the other properties (bodies, list queries, path ids, credentials), sent while the
// instance sheds load: with its cap of work in flight reached, or with its event loop lagging while work is
// in flight. Every answer is a proper 2xx or 4xx, or a 503 in the error envelope with Retry-After; nothing
// else is a 5xx, nothing is shed while the instance is calm, and a shed request changes no stored data.
// Runs and seed as in http.fuzz.test.ts (REG_FUZZ_RUNS, REG_FUZZ_PG_RUNS, REG_FUZZ_SEED, REG_FUZZ_PATH).
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Store } from '../../src/store/store.js';
import * as A from './arbitraries.js';
import {
  aimedRequest,
  announce,
  bearer,
  buildWorld,
  checkNoPollution,
  checkResponse,
  describeChanges,
  describeExchange,
  fcParams,
  fingerprintChanges,
  fuzzBackends,
  histogram,
  seen,
  send,
  takeFingerprint,
  type Res,
  type Sent,
  type World,
} from './harness.js';
import { buildBody, pathFor, resolveId } from './requests.js';

/** Requests held in flight to make the instance busy; shedding on lag starts at this many. */
const BUSY = 4;
/** The event-loop delay beyond which the instance sheds (ms): far above a busy test machine's own. */
const MAX_LAG_MS = 200;
/** Held requests ask for this agent's reputation, an id no recipe names. */
const HELD_AGENT = 'held-in-flight';

type Load = 'calm' | 'full' | 'lagging';

/** A store whose reputation reads for HELD_AGENT wait until released: requests the instance counts in flight. */
function holdingStore(inner: Store) {
  let waiting = 0;
  let release: () => void = () => undefined;
  let gate = Promise.resolve();
  const store = new Proxy(inner, {
    get(target, name, receiver) {
      if (name === 'reputation') {
        return async (...args: Parameters<Store['reputation']>) => {
          if (args[0] === HELD_AGENT) {
            waiting++;
            await gate;
            waiting--;
          }
          return target.reputation(...args);
        };
      }
      const value = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    store,
    /**
     * Sends n requests that stay in flight until `release`; resolves once each waits in the store or was
     * shed on its way there (a lag left from an earlier run sheds those beyond BUSY).
     */
    async hold(w: World, n: number): Promise<{ answers: Promise<Res[]> }> {
      gate = new Promise((resolve) => (release = resolve));
      let answered = 0;
      const held = Promise.all(
        Array.from({ length: n }, () =>
          send(w.app, { method: 'GET', url: `/v1/reputation/${HELD_AGENT}`, headers: {} }).finally(() => answered++),
        ),
      );
      while (waiting + answered < n) await sleep(1);
      return { answers: held }; // wrapped: an async function would wait for a promise it returns
    },
    release: () => release(),
  };
}

const stall = (ms: number) => {
  const until = Date.now() + ms;
  while (Date.now() < until);
};

/** Whether the instance's event-loop delay monitor reports a lag beyond the limit (it lasts one sample, ~1 s). */
const lagging = (w: World) => w.app.memoryUsage().eventLoopDelay > MAX_LAG_MS;

/** Stalls the event loop until the monitor reports the lag. */
async function makeLag(w: World): Promise<void> {
  while (!lagging(w)) {
    stall(1_100);
    await sleep(2); // the monitor's sample is taken on a timer
  }
}

/** One hostile request of any kind the other properties send. */
type Hostile =
  | { kind: 'body'; route: A.PostRoute; body: A.BodyRecipe; keyed: boolean }
  | { kind: 'query'; query: A.QueryRecipe }
  | { kind: 'path'; path: A.PathRecipe }
  | { kind: 'credential'; auth: A.AuthRecipe; target: A.AuthTarget };

function hostile(w: World): fc.Arbitrary<Hostile> {
  const seeds: A.BodySeeds = { foreignPrefixes: [w.writer.prefix, w.other.prefix], agentIds: [...w.agents] };
  return fc.oneof(
    fc.constantFrom(...A.POST_ROUTES).chain((route) =>
      fc.record({
        kind: fc.constant('body' as const),
        route: fc.constant(route),
        body: A.bodyRecipe(route, seeds),
        keyed: fc.boolean(),
      }),
    ),
    fc.record({ kind: fc.constant('query' as const), query: A.queryRecipe }),
    fc.record({ kind: fc.constant('path' as const), path: A.pathRecipe }),
    fc.record({ kind: fc.constant('credential' as const), auth: A.authRecipe, target: A.authTarget }),
  );
}

function request(w: World, h: Hostile): Sent {
  switch (h.kind) {
    case 'body': {
      const built = buildBody(h.body);
      const urls: Record<A.PostRoute, string> = {
        register: '/v1/auth/register',
        revoke: '/v1/auth/revoke',
        skills: '/v1/skills',
        knowledge: '/v1/knowledge',
        validate: `/v1/knowledge/${w.foreignUnit}/validate`,
      };
      const headers: Record<string, string> = h.keyed ? bearer(w.writer.key) : {};
      if (built.contentType !== null) headers['content-type'] = built.contentType;
      return {
        method: 'POST',
        url: urls[h.route],
        headers,
        ...(built.payload !== undefined ? { payload: built.payload } : {}),
      };
    }
    case 'query': {
      const parts = h.query.params.map(A.writeParam);
      if (h.query.junk !== null) parts.push(h.query.junk);
      const url = `${h.query.path}${h.query.trailingSlash ? '/' : ''}${parts.length ? `?${parts.join('&')}` : ''}`;
      return { method: 'GET', url, headers: h.query.caller === 'anonymous' ? {} : bearer(w.writer.key) };
    }
    case 'path': {
      const { raw } = resolveId(w, h.path.id);
      const headers: Record<string, string> = h.path.caller === 'none' ? {} : bearer(w.reader.key);
      return { method: h.path.method, url: pathFor(h.path.template, raw) + h.path.tail, headers };
    }
    case 'credential': {
      const a = h.auth;
      const authorization =
        a.kind === 'literal'
          ? a.value
          : a.kind === 'revoked'
            ? `Bearer ${w.revokedKey}`
            : A.mangleKey(a.who === 'writer' ? w.writer.key : w.admin.key, a.how);
      return aimedRequest(w, h.target, authorization).s;
    }
  }
}

/** Refused by the router before any hook runs, so before shedding can: a path that does not decode. */
function refusedByRouter(s: Sent, res: Res): boolean {
  if (res.statusCode !== 400) return false;
  try {
    decodeURIComponent(s.url.split('?')[0]!);
    return false;
  } catch {
    return true;
  }
}

for (const b of fuzzBackends()) {
  describe(`fuzz: hostile requests while the instance sheds load [${b.name}]`, { skip: b.skip }, () => {
    it('a proper 2xx or 4xx, or a 503 with the envelope and Retry-After; shed only when busy; shed requests change nothing', async (t) => {
      announce(t, b.runs);
      const holding = holdingStore(await b.open());
      const w = await buildWorld(holding.store, {
        limits: { maxInFlight: 2 * BUSY, minInFlightToShed: BUSY, maxEventLoopDelayMs: MAX_LAG_MS },
      });
      const shedBy = new Map<Load, number>();
      try {
        const load = fc.constantFrom<Load>('calm', 'full', 'full', 'lagging');
        await fc.assert(
          fc.asyncProperty(load, hostile(w), async (mode, h) => {
            const s = request(w, h);
            const held = mode === 'calm' ? null : await holding.hold(w, mode === 'full' ? 2 * BUSY : BUSY);
            if (mode === 'lagging') await makeLag(w);
            let res: Res;
            try {
              res = await send(w.app, s);
            } finally {
              holding.release();
            }
            for (const answer of (await held?.answers) ?? [])
              assert.ok([404, 503].includes(answer.statusCode), `a held request is answered: ${answer.statusCode}`);
            seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
            checkResponse(s, res);
            checkNoPollution(s);
            if (res.statusCode === 503) shedBy.set(mode, (shedBy.get(mode) ?? 0) + 1);

            if (mode === 'calm' && res.statusCode === 503)
              throw new Error(`shed with nothing else in flight${describeExchange(s, res)}`);
            // With the loop lagging and work in flight, every request a hook sees is shed; only the router's
            // own refusals come before (and a lag that ended with its sample, which the monitor then says).
            if (mode === 'lagging' && res.statusCode !== 503 && !refusedByRouter(s, res) && lagging(w))
              throw new Error(`not shed while the event loop lags with work in flight${describeExchange(s, res)}`);

            const after = await takeFingerprint(w);
            const before = w.fingerprint;
            w.fingerprint = after;
            if (res.statusCode >= 400 && after !== before) {
              throw new Error(
                `a refused request (${res.statusCode}) changed stored data: ${describeChanges(fingerprintChanges(before, after))}${describeExchange(s, res)}`,
              );
            }
          }),
          fcParams(b.runs),
        );
        // Over the whole run, both ways of being busy shed: the property above was not vacuous.
        assert.ok((shedBy.get('full') ?? 0) > 0, 'requests were shed at the cap of work in flight');
        assert.ok((shedBy.get('lagging') ?? 0) > 0, 'requests were shed while the event loop lagged');
      } finally {
        t.diagnostic(`statuses: ${histogram()}; shed: ${JSON.stringify(Object.fromEntries(shedBy))}`);
        await w.t.close();
      }
    });
  });
}
