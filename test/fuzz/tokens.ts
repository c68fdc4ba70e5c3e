// Bearer JWTs for the OIDC fuzz property: a real key-set endpoint on 127.0.0.1, signing keys, recipes for
// tokens (forged, unsigned, HMAC-confused, signed by a stranger, signed with odd claims, valid ones
// mutated by one character), and an oracle that says from the documented rules (docs/oidc.md,
// "Which tokens are accepted") whether a token must be refused, accepted, or may go either way.
import { createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { UNICODE_EDGES, weirdValue } from './arbitraries.js';

export const ISSUER = 'https://idp.example.test/';
export const AUDIENCE = 'knowledge-registry';
/** The verifier's leeway for exp, nbf and iat (its default). */
const TOLERANCE_SEC = 30;
/** Bearer tokens longer than this are never verified (src/http/auth.ts). */
const MAX_TOKEN_LENGTH = 8192;

// ---- keys and the key-set endpoint ----------------------------------------------------------------

export type KeyName = 'rs' | 'es' | 'ed';
type Alg = 'RS256' | 'ES256' | 'EdDSA';

export interface SigningKey {
  alg: Alg;
  kid: string;
  privateKey: KeyObject;
  jwk: Record<string, unknown>;
}

function signingKey(alg: Alg, kid: string): SigningKey {
  const pair =
    alg === 'RS256'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : alg === 'ES256'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : generateKeyPairSync('ed25519');
  return {
    alg,
    kid,
    privateKey: pair.privateKey,
    jwk: { ...pair.publicKey.export({ format: 'jwk' }), kid, alg, use: 'sig' },
  };
}

export interface Keys {
  /** Published in the key set. */
  rs: SigningKey;
  es: SigningKey;
  ed: SigningKey;
  /** Never published: an attacker's keys. */
  strangerRs: SigningKey;
  strangerEs: SigningKey;
}

export function makeKeys(): Keys {
  return {
    rs: signingKey('RS256', 'rs-1'),
    es: signingKey('ES256', 'es-1'),
    ed: signingKey('EdDSA', 'ed-1'),
    strangerRs: signingKey('RS256', 'stranger-rs'),
    strangerEs: signingKey('ES256', 'stranger-es'),
  };
}

export interface KeySetServer {
  url: string;
  hits(): number;
  close(): Promise<void>;
}

export async function keySetServer(keys: Keys): Promise<KeySetServer> {
  const body = JSON.stringify({ keys: [keys.rs.jwk, keys.es.jwk, keys.ed.jwk] });
  let hits = 0;
  const server = createServer((_request, response) => {
    hits++;
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    hits: () => hits,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ---- building tokens ------------------------------------------------------------------------------

const b64url = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** A compact JWS over exactly these header and payload values (no library checks what they hold). */
export function signCompact(key: SigningKey, header: unknown, payload: unknown): string {
  const input = `${b64url(header)}.${b64url(payload)}`;
  const data = Buffer.from(input);
  const signature =
    key.alg === 'RS256'
      ? sign('sha256', data, key.privateKey)
      : key.alg === 'ES256'
        ? sign('sha256', data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' })
        : sign(null, data, key.privateKey);
  return `${input}.${signature.toString('base64url')}`;
}

/** A claim as the recipe holds it: left out, a value, or seconds from the moment of signing. */
export type Claim = { omit: true } | { value: unknown } | { rel: number };

export interface ClaimsRecipe {
  iss: Claim;
  aud: Claim;
  exp: Claim;
  nbf: Claim;
  iat: Claim;
  sub: Claim;
  agent_id: Claim;
  scopes: Claim;
  reg_tier: Claim;
  /** A large extra claim of this many characters (0: none). */
  padding: number;
}

export function resolveClaims(r: ClaimsRecipe, nowSec: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of ['iss', 'aud', 'exp', 'nbf', 'iat', 'sub', 'agent_id', 'scopes', 'reg_tier'] as const) {
    const c = r[name];
    if ('value' in c) out[name] = c.value;
    else if ('rel' in c) out[name] = nowSec + c.rel;
  }
  if (r.padding > 0) out.padding = 'p'.repeat(r.padding);
  return out;
}

/** Well-behaved claims for an identity; `overrides` replaces single claims. */
export function goodClaims(
  identity: { agentId: string; scopes?: unknown },
  overrides: Partial<ClaimsRecipe> = {},
): ClaimsRecipe {
  return {
    iss: { value: ISSUER },
    aud: { value: AUDIENCE },
    exp: { rel: 300 },
    nbf: { omit: true },
    iat: { rel: 0 },
    sub: { value: identity.agentId },
    agent_id: { omit: true },
    scopes: identity.scopes === undefined ? { omit: true } : { value: identity.scopes },
    reg_tier: { omit: true },
    padding: 0,
    ...overrides,
  };
}

export type HeaderKid = 'same' | 'omit' | 'unknown' | 'otherKey' | 'number' | 'empty';
export type HeaderTyp =
  'omit' | 'JWT' | 'at+jwt' | 'application/AT+JWT' | 'jwt' | 'logout+jwt' | 'JOSE' | '' | 'number';
/** Extra header members: none, a critical extension, an embedded key, a key-set URL elsewhere. */
export type HeaderExtra = 'none' | 'critUnknown' | 'jwkEmbedded' | 'jku' | 'x5u';

/** Pre-claimed IdP agents (first used during set-up) and agents registered with API keys. */
export const IDP_AGENTS = ['idp-writer', 'idp-reader', 'idp-admin'] as const;
export const KEY_AGENTS = ['writer', 'reader', 'admin', 'other', 'revoker'] as const;

/** The `scopes` claim each pre-claimed IdP agent's valid tokens carry. */
export function idpScopes(who: (typeof IDP_AGENTS)[number]): unknown {
  return who === 'idp-admin' ? ['read', 'write', 'admin'] : who === 'idp-reader' ? 'read' : undefined;
}

function idpIdentity(who: (typeof IDP_AGENTS)[number]): Identity {
  const scopes = who === 'idp-admin' ? ['read', 'write', 'admin'] : who === 'idp-reader' ? ['read'] : ['read', 'write'];
  return { agentId: who, scopes, tier: 'pro' };
}

/** A valid token of a pre-claimed IdP agent. */
export function validToken(keys: Keys, who: (typeof IDP_AGENTS)[number], nowSec: number, key: KeyName = 'rs'): string {
  const k = keys[key];
  return signCompact(
    k,
    { alg: k.alg, kid: k.kid },
    resolveClaims(goodClaims({ agentId: who, scopes: idpScopes(who) }), nowSec),
  );
}

export type TokenRecipe =
  /** Signed by a published key, with odd headers or claims. */
  | { kind: 'signed'; key: KeyName; kid: HeaderKid; typ: HeaderTyp; extra: HeaderExtra; claims: ClaimsRecipe }
  /** A valid token of a pre-claimed IdP agent, then one character changed, removed or added, or parts shuffled. */
  | {
      kind: 'mutated';
      key: KeyName;
      who: (typeof IDP_AGENTS)[number];
      part: 0 | 1 | 2;
      at: number;
      how: 'replace' | 'delete' | 'insert' | 'dropSignature' | 'swapParts' | 'extraPart';
      ch: string;
    }
  /** Good claims signed with HMAC, the secret being something public (the algorithm-confusion attack). */
  | { kind: 'hmac'; alg: 'HS256' | 'HS384' | 'HS512'; secret: 'jwkJson' | 'modulus' | 'empty' | 'word'; who: string }
  /** Good claims, alg none, no signature. */
  | { kind: 'none'; alg: 'none' | 'None' | 'NONE' | 'nOnE'; signature: '' | 'x'; who: string }
  /** Good claims signed by a key that is not in the set, naming a published kid, an unknown one, or embedding itself. */
  | {
      kind: 'stranger';
      key: 'strangerRs' | 'strangerEs';
      kid: 'published' | 'own' | 'omit';
      embed: boolean;
      who: string;
    }
  /** Another header and payload with the signature of a real token. */
  | { kind: 'transplant'; key: KeyName; claims: ClaimsRecipe }
  /** Three (or two, four) base64url parts of random JSON (or not JSON) and a random signature. */
  | { kind: 'random'; header: unknown; payload: unknown; signature: string; parts: 2 | 3 | 4 };

export interface BuiltToken {
  token: string;
  /** The claims a signed token carries (resolved), for the oracle. */
  claims?: Record<string, unknown>;
  header?: Record<string, unknown>;
  /** The valid token a mutation started from. */
  original?: string;
}

const HMAC = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' } as const;

function header(
  key: SigningKey,
  keys: Keys,
  kid: HeaderKid,
  typ: HeaderTyp,
  extra: HeaderExtra,
): Record<string, unknown> {
  const h: Record<string, unknown> = { alg: key.alg };
  const other = key === keys.rs ? keys.es : keys.rs;
  if (kid === 'same') h.kid = key.kid;
  else if (kid === 'unknown') h.kid = 'rotated-away-7';
  else if (kid === 'otherKey') h.kid = other.kid;
  else if (kid === 'number') h.kid = 1;
  else if (kid === 'empty') h.kid = '';
  if (typ === 'number') h.typ = 1;
  else if (typ !== 'omit') h.typ = typ;
  if (extra === 'critUnknown') Object.assign(h, { crit: ['x-registry'], 'x-registry': true });
  else if (extra === 'jwkEmbedded') h.jwk = keys.strangerRs.jwk;
  else if (extra === 'jku') h.jku = 'http://127.0.0.1:9/jwks.json';
  else if (extra === 'x5u') h.x5u = 'http://127.0.0.1:9/cert.pem';
  return h;
}

export function buildToken(r: TokenRecipe, keys: Keys, nowSec: number): BuiltToken {
  switch (r.kind) {
    case 'signed': {
      const key = keys[r.key];
      const h = header(key, keys, r.kid, r.typ, r.extra);
      const claims = resolveClaims(r.claims, nowSec);
      return { token: signCompact(key, h, claims), claims, header: h };
    }
    case 'mutated': {
      const original = validToken(keys, r.who, nowSec, r.key);
      const parts = original.split('.');
      const target = parts[r.part]!;
      const at = r.at % (target.length + 1);
      switch (r.how) {
        case 'replace':
          parts[r.part] = target.slice(0, at) + r.ch + target.slice(at + 1);
          break;
        case 'delete':
          parts[r.part] = target.slice(0, at) + target.slice(at + 1);
          break;
        case 'insert':
          parts[r.part] = target.slice(0, at) + r.ch + target.slice(at);
          break;
        case 'dropSignature':
          parts[2] = '';
          break;
        case 'swapParts':
          [parts[0], parts[1]] = [parts[1]!, parts[0]!];
          break;
        case 'extraPart':
          parts.push(parts[2]!);
          break;
      }
      return { token: parts.join('.'), original };
    }
    case 'hmac': {
      const secret = {
        jwkJson: JSON.stringify(keys.rs.jwk),
        modulus: String(keys.rs.jwk.n),
        empty: '',
        word: 'secret',
      }[r.secret];
      const h = { alg: r.alg, kid: keys.rs.kid };
      const input = `${b64url(h)}.${b64url(resolveClaims(goodClaims({ agentId: r.who }), nowSec))}`;
      return { token: `${input}.${createHmac(HMAC[r.alg], secret).update(input).digest('base64url')}` };
    }
    case 'none': {
      const input = `${b64url({ alg: r.alg, typ: 'JWT' })}.${b64url(resolveClaims(goodClaims({ agentId: r.who, scopes: ['read', 'write', 'admin'] }), nowSec))}`;
      return { token: `${input}.${r.signature}` };
    }
    case 'stranger': {
      const key = keys[r.key];
      const published = key.alg === 'RS256' ? keys.rs.kid : keys.es.kid;
      const h: Record<string, unknown> = { alg: key.alg };
      if (r.kid === 'published') h.kid = published;
      else if (r.kid === 'own') h.kid = key.kid;
      if (r.embed) h.jwk = key.jwk;
      return {
        token: signCompact(
          key,
          h,
          resolveClaims(goodClaims({ agentId: r.who, scopes: ['read', 'write', 'admin'] }), nowSec),
        ),
      };
    }
    case 'transplant': {
      const key = keys[r.key];
      const real = signCompact(
        key,
        { alg: key.alg, kid: key.kid },
        resolveClaims(goodClaims({ agentId: 'idp-reader', scopes: 'read' }), nowSec),
      );
      const forged = `${b64url({ alg: key.alg, kid: key.kid })}.${b64url(resolveClaims(r.claims, nowSec))}`;
      return { token: `${forged}.${real.split('.')[2]}` };
    }
    case 'random':
      return { token: [b64url(r.header), b64url(r.payload), r.signature, 'x'].slice(0, r.parts).join('.') };
  }
}

// ---- the oracle -------------------------------------------------------------------------------------

export interface Identity {
  agentId: string;
  scopes: string[];
  tier: 'free' | 'pro' | 'enterprise';
}

/** What a token must do; `either` carries the identity it has if it is accepted, when known. */
export type Expectation =
  | { verdict: 'refuse'; why: string }
  | { verdict: 'accept'; identity: Identity }
  | { verdict: 'either'; why: string; identity?: Identity };

const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const EDGE_SPACE = /^\s|\s$/u;
const SCOPES = ['read', 'write', 'admin'];
const TIERS = ['free', 'pro', 'enterprise'];

/** docs/oidc.md's rules for a token signed by a published key with its own algorithm. */
function claimsVerdict(h: Record<string, unknown>, c: Record<string, unknown>, nowSec: number): Expectation {
  const refuse = (why: string): Expectation => ({ verdict: 'refuse', why });
  if (h.crit !== undefined) return refuse('an unknown critical header');
  if (h.kid !== undefined && h.kid !== 'rs-1' && h.kid !== 'es-1' && h.kid !== 'ed-1')
    return refuse('a kid the key set does not hold');
  if (typeof h.kid === 'string' && h.kid.split('-')[0] !== { RS256: 'rs', ES256: 'es', EdDSA: 'ed' }[h.alg as Alg])
    return refuse('the kid names a key of another algorithm');
  if (h.typ !== undefined) {
    const typ = typeof h.typ === 'string' ? h.typ.toLowerCase().replace(/^application\//, '') : null;
    if (typ !== 'jwt' && typ !== 'at+jwt') return refuse(`typ ${JSON.stringify(h.typ)}`);
  }
  if (c.iss !== ISSUER) return refuse('iss is not the issuer');
  const aud = c.aud;
  if (!(aud === AUDIENCE || (Array.isArray(aud) && aud.includes(AUDIENCE))))
    return refuse('aud does not hold the audience');
  if (typeof c.exp !== 'number') return refuse('exp missing or not a number');
  if (c.exp <= nowSec - TOLERANCE_SEC - 5) return refuse('expired');
  if (c.exp <= nowSec - TOLERANCE_SEC + 5) return { verdict: 'either', why: 'exp at the edge of the tolerance' };
  for (const name of ['nbf', 'iat'] as const) {
    const v = c[name];
    if (v === undefined) continue;
    if (typeof v !== 'number') return refuse(`${name} is not a number`);
    if (v > nowSec + TOLERANCE_SEC + 5) return refuse(`${name} in the future`);
    if (v > nowSec + TOLERANCE_SEC - 5) return { verdict: 'either', why: `${name} at the edge of the tolerance` };
  }
  const claim = c.agent_id !== undefined ? 'agent_id' : 'sub';
  const id = c[claim];
  if (typeof id !== 'string' || id.length === 0) return refuse(`${claim} is not a non-empty string`);
  if (id.length > 256) return refuse(`${claim} is longer than 256`);
  if (INVISIBLE.test(id) || !id.isWellFormed())
    return refuse(`${claim} has invisible characters or is not well-formed`);
  if (EDGE_SPACE.test(id)) return refuse(`${claim} has edge whitespace`);
  if (id === '.' || id === '..') return refuse(`${claim} is a dot segment`);
  if ((KEY_AGENTS as readonly string[]).includes(id)) return refuse(`${id} is an API-key agent`);
  let tier: Identity['tier'] = 'pro';
  if (c.reg_tier !== undefined) {
    if (!TIERS.includes(c.reg_tier as string)) return refuse('reg_tier is not a tier');
    tier = c.reg_tier as Identity['tier'];
  }
  let scopes = ['read', 'write'];
  if (c.scopes !== undefined) {
    if (typeof c.scopes === 'string' && /[^\S ]/.test(c.scopes))
      return { verdict: 'either', why: 'scopes separated by other white space' };
    const list = typeof c.scopes === 'string' ? c.scopes.trim().split(/ +/) : c.scopes;
    if (!Array.isArray(list) || list.length === 0 || list.some((s) => !SCOPES.includes(s as string)))
      return refuse('scopes are not a list of scopes');
    scopes = SCOPES.filter((s) => list.includes(s));
  }
  return { verdict: 'accept', identity: { agentId: id, scopes, tier } };
}

/** Same bytes after base64url decoding, though spelled differently (trailing bits, + and / for - and _). */
function sameSignature(a: string, b: string): boolean {
  const norm = b.replaceAll('+', '-').replaceAll('/', '_');
  return (
    norm.length === a.length &&
    /^[A-Za-z0-9_-]*$/.test(norm) &&
    Buffer.from(norm, 'base64url').equals(Buffer.from(a, 'base64url'))
  );
}

export function expectation(r: TokenRecipe, built: BuiltToken, nowSec: number): Expectation {
  if (built.token.length > MAX_TOKEN_LENGTH) return { verdict: 'refuse', why: 'longer than 8192 characters' };
  if (built.token.startsWith('reg_')) return { verdict: 'refuse', why: 'goes to the API-key layer' };
  switch (r.kind) {
    case 'signed': {
      if (r.extra === 'jwkEmbedded' || r.extra === 'jku' || r.extra === 'x5u') {
        const v = claimsVerdict(
          { ...built.header!, jwk: undefined, jku: undefined, x5u: undefined },
          built.claims!,
          nowSec,
        );
        // Signed by a published key: the embedded pointer is ignored or the token refused; both are safe.
        return v.verdict === 'accept'
          ? { verdict: 'either', why: `a ${r.extra} header on a token signed by a published key`, identity: v.identity }
          : v;
      }
      return claimsVerdict(built.header!, built.claims!, nowSec);
    }
    case 'mutated': {
      const identity = idpIdentity(r.who);
      if (built.token === built.original) return { verdict: 'either', why: 'the mutation changed nothing', identity };
      const [h, p, s, ...more] = built.token.split('.');
      const [oh, op, os] = built.original!.split('.');
      if (more.length === 0 && h === oh && p === op && s !== undefined && sameSignature(os!, s)) {
        return { verdict: 'either', why: 'the signature decodes to the same bytes', identity };
      }
      return { verdict: 'refuse', why: 'a valid token changed by one character' };
    }
    case 'hmac':
      return { verdict: 'refuse', why: 'HMAC is never accepted' };
    case 'none':
      return { verdict: 'refuse', why: 'alg none' };
    case 'stranger':
      return { verdict: 'refuse', why: 'signed by a key outside the key set' };
    case 'transplant':
      return { verdict: 'refuse', why: 'a signature of other content' };
    case 'random':
      return { verdict: 'refuse', why: 'random parts' };
  }
}

// ---- arbitraries ---------------------------------------------------------------------------------

const value = (v: unknown): Claim => ({ value: v });
const omit: Claim = { omit: true };

/** Mostly `good`, now and then one of `bad`: odd claims should be rare enough that whole tokens still verify. */
function mostly<T>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<T>, goodWeight = 12): fc.Arbitrary<T> {
  return fc.oneof({ weight: goodWeight, arbitrary: good }, { weight: 1, arbitrary: bad });
}

const claimFrom = (...values: unknown[]) => fc.constantFrom(...values).map(value);

/** Agent ids: pre-claimed, key-owned, fresh and as-given, odd, invisible, huge, and not strings at all. */
export const agentIdClaim: fc.Arbitrary<Claim> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...IDP_AGENTS).map(value) },
  { weight: 2, arbitrary: fc.constantFrom(...KEY_AGENTS, 'Writer', 'ADMIN').map(value) },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom(
        'auth0|123',
        'google-oauth2/1234',
        'alice@example.com',
        'a b',
        'réseau',
        'Ｒｅｔｒｙ',
        '日本語',
        '.',
        '..',
        '...',
        ' x',
        'x ',
        '\u00a0x',
        'x\u3000',
        'a/b',
        '../admin',
        '%2e%2e',
        '?q=1',
        '#frag',
        'a'.repeat(256),
        'a'.repeat(257),
        'é'.repeat(256),
        '😀'.repeat(128),
        '😀'.repeat(129),
        '',
      )
      .map(value),
  },
  { weight: 2, arbitrary: fc.constantFrom(...UNICODE_EDGES).map((u) => value(`idp-${u}`)) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).map((s) => value(`fz-${s}`)) },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        fc.constantFrom<unknown>(123, 0, -1, 1.5, true, false, null, [], ['idp-writer'], {}, { id: 'idp-writer' }),
        weirdValue,
      )
      .map(value),
  },
);

const scopesClaim: fc.Arbitrary<Claim> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(omit) },
  {
    weight: 5,
    arbitrary: claimFrom(
      ['read', 'write'],
      ['read'],
      ['write'],
      'read',
      'read write',
      ' read  write ',
      'read write admin',
      ['admin'],
      ['read', 'admin'],
      ['read', 'read'],
      ['write', 'write', 'read'],
    ),
  },
  {
    weight: 2,
    arbitrary: claimFrom(
      'read\twrite',
      'read,write',
      [],
      '',
      ' ',
      'READ',
      ['Read'],
      ['read', 1],
      ['read', null],
      [['read']],
      { read: true },
      7,
      null,
      true,
      'scope:read',
    ),
  },
  { weight: 1, arbitrary: weirdValue.map(value) },
);

const tierClaim: fc.Arbitrary<Claim> = fc.oneof(
  { weight: 5, arbitrary: fc.constant(omit) },
  { weight: 5, arbitrary: claimFrom('free', 'pro', 'enterprise') },
  {
    weight: 1,
    arbitrary: claimFrom('anonymous', 'PRO', 'Free', '', 'gold', 1, 0, null, true, ['pro'], { tier: 'pro' }),
  },
  { weight: 1, arbitrary: weirdValue.map(value) },
);

/** Mostly good claims with a few odd ones, so that accepted and refused tokens both occur. */
export const claimsRecipe: fc.Arbitrary<ClaimsRecipe> = fc.record({
  iss: mostly(
    fc.constant(value(ISSUER)),
    fc.oneof(
      claimFrom(
        'https://idp.example.test',
        'HTTPS://IDP.EXAMPLE.TEST/',
        'https://evil.example/',
        '',
        123,
        null,
        [ISSUER],
        { iss: ISSUER },
      ),
      fc.constant(omit),
    ),
  ),
  aud: mostly(
    fc.oneof(
      { weight: 6, arbitrary: fc.constant(value(AUDIENCE)) },
      { weight: 1, arbitrary: claimFrom([AUDIENCE], ['other', AUDIENCE], [AUDIENCE, 123]) },
    ),
    fc.oneof(claimFrom('other', 'KNOWLEDGE-REGISTRY', [], ['other'], 123, null, { aud: AUDIENCE }), fc.constant(omit)),
  ),
  exp: mostly(
    fc.constantFrom<Claim>({ rel: 300 }, { rel: -10 }, { rel: 10 ** 9 }, value(1e20)),
    fc.constantFrom<Claim>({ rel: -3600 }, omit, value(null), value('9999999999'), value(0), value(-1), value(true)),
  ),
  nbf: mostly(
    fc.constantFrom<Claim>(omit, { rel: -60 }, { rel: 10 }),
    fc.constantFrom<Claim>({ rel: 3600 }, value('0'), value(null), value(1e20)),
  ),
  iat: mostly(
    fc.constantFrom<Claim>({ rel: 0 }, omit, { rel: -86_400 }, { rel: 10 }, value(-1)),
    fc.constantFrom<Claim>({ rel: 3600 }, value('now'), value(null), value(1e20)),
  ),
  sub: mostly(agentIdClaim, fc.constant(omit), 6),
  agent_id: fc.oneof({ weight: 3, arbitrary: fc.constant(omit) }, { weight: 2, arbitrary: agentIdClaim }),
  scopes: scopesClaim,
  reg_tier: tierClaim,
  padding: mostly(fc.constant(0), fc.constantFrom(1_000, 5_000, 9_000), 8),
});

const keyName = fc.constantFrom<KeyName>('rs', 'es', 'ed');
const who = fc.constantFrom<string>(...IDP_AGENTS, 'admin', 'writer', 'fresh-agent');
const base64urlChar = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split(''));

export const tokenRecipe: fc.Arbitrary<TokenRecipe> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('signed' as const),
      key: keyName,
      kid: mostly(
        fc.constantFrom<HeaderKid>('same', 'omit'),
        fc.constantFrom<HeaderKid>('unknown', 'otherKey', 'number', 'empty'),
        8,
      ),
      typ: mostly(
        fc.constantFrom<HeaderTyp>('omit', 'JWT', 'at+jwt', 'application/AT+JWT', 'jwt'),
        fc.constantFrom<HeaderTyp>('logout+jwt', 'JOSE', '', 'number'),
        8,
      ),
      extra: mostly(
        fc.constant<HeaderExtra>('none'),
        fc.constantFrom<HeaderExtra>('critUnknown', 'jwkEmbedded', 'jku', 'x5u'),
        10,
      ),
      claims: claimsRecipe,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('mutated' as const),
      key: keyName,
      who: fc.constantFrom(...IDP_AGENTS),
      part: fc.constantFrom<0 | 1 | 2>(0, 1, 2, 2),
      at: fc.nat({ max: 2_000 }),
      how: fc.constantFrom(
        'replace' as const,
        'replace' as const,
        'replace' as const,
        'delete' as const,
        'insert' as const,
        'dropSignature' as const,
        'swapParts' as const,
        'extraPart' as const,
      ),
      ch: fc.oneof(
        { weight: 5, arbitrary: base64urlChar },
        { weight: 1, arbitrary: fc.constantFrom('.', '=', '+', '/', '~', '%', 'é', '"') },
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('hmac' as const),
      alg: fc.constantFrom('HS256' as const, 'HS384' as const, 'HS512' as const),
      secret: fc.constantFrom('jwkJson' as const, 'modulus' as const, 'empty' as const, 'word' as const),
      who,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('none' as const),
      alg: fc.constantFrom('none' as const, 'None' as const, 'NONE' as const, 'nOnE' as const),
      signature: fc.constantFrom('' as const, 'x' as const),
      who,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('stranger' as const),
      key: fc.constantFrom('strangerRs' as const, 'strangerEs' as const),
      kid: fc.constantFrom('published' as const, 'own' as const, 'omit' as const),
      embed: fc.boolean(),
      who,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('transplant' as const), key: keyName, claims: claimsRecipe }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('random' as const),
      header: fc.oneof(
        fc.record(
          {
            alg: fc.oneof(
              fc.constantFrom<unknown>(
                'none',
                'HS256',
                'RS256',
                'ES256',
                'EdDSA',
                'PS256',
                'RS512',
                'ES512',
                'A128KW',
                'dir',
                '',
                null,
                1,
              ),
              fc.string({ maxLength: 8 }),
            ),
            kid: fc.oneof(
              fc.constantFrom<unknown>(
                'rs-1',
                'es-1',
                'ed-1',
                'nope',
                '',
                null,
                7,
                '../../etc/passwd',
                'x'.repeat(2_000),
              ),
              fc.string({ maxLength: 8 }),
            ),
            typ: fc.constantFrom<unknown>('JWT', 'at+jwt', 'logout+jwt', 5),
            crit: fc.constantFrom<unknown>(['exp'], ['b64'], [], 'b64'),
            b64: fc.boolean(),
          },
          { requiredKeys: ['alg'] },
        ),
        fc.jsonValue({ maxDepth: 2 }),
        fc.constantFrom<unknown>('not json', '', '{', '{"alg":"RS256"', '[]', 'null'),
      ),
      payload: fc.oneof(
        claimsRecipe.map((c) => resolveClaims(c, 1_800_000_000)),
        fc.jsonValue({ maxDepth: 2 }),
        fc.constantFrom<unknown>('not json', '', '{', 'null', '"a string"'),
      ),
      signature: fc.oneof(
        fc.constant(''),
        fc.stringMatching(/^[A-Za-z0-9_-]{1,342}$/),
        fc.string({ maxLength: 20 }).map(b64url),
        fc.constantFrom('=', '==', 'AA==', '!!!', 'x'.repeat(8_000)),
      ),
      parts: fc.constantFrom<2 | 3 | 4>(3, 3, 3, 3, 2, 4),
    }),
  },
);
