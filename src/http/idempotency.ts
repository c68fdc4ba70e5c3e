// Idempotency-Key on every POST: a retry with the same key and body gets the original response without
// doing the work again; the same key with a different request is a 409. Responses are kept 24 hours.
//
// The saved response is written in the same transaction as the change it answers (see the Store), and it
// is sealed with AES-256-GCM under a key derived from both a server-side secret (never in the database)
// and the client's Idempotency-Key (never stored), so a copy of the database opens nothing. Responses are
// kept per credential (the API key, or the token's agent and scopes; an address for anonymous callers),
// so a replay passes exactly the authentication and authorization of the request it answers. A route
// whose answer carries a secret (registration: the raw key) asks for a high-entropy Idempotency-Key.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { canonicalJson } from '../domain/canonical-json.js';
import { badRequest, conflict } from '../domain/errors.js';
import type { Change } from '../service/context.js';
import { IdempotencyKeyTakenError, type IdempotentResponse, type SavedResponse, type Store } from '../store/store.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;
/** Idempotency-Keys for answers that carry a secret: a UUID (36) or 32+ random characters. */
export const SECRET_KEY_MIN_LENGTH = 32;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's answer carries a secret: replays need a high-entropy key, and nothing caches it. */
    carriesSecret?: boolean;
  }
}

interface IdempotencyContext {
  scope: string;
  keyHash: string;
  requestHash: string;
  sealKey: Buffer;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: IdempotencyContext | null;
  }
}

const sha256 = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest();

function seal(key: Buffer, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
}

function unseal(key: Buffer, stored: string): string {
  const raw = Buffer.from(stored, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

function replay(request: FastifyRequest, reply: FastifyReply, saved: SavedResponse): FastifyReply {
  const context = request.idempotency!;
  if (saved.requestHash !== context.requestHash) {
    throw conflict('this Idempotency-Key was already used for a different request; use a new key');
  }
  let body: string;
  try {
    body = unseal(context.sealKey, saved.body);
  } catch {
    // Sealed under another server secret (an instance without the shared REG_SECRET, or a rotated one).
    throw conflict(
      'this request was already processed, but its answer cannot be replayed here; use a new Idempotency-Key',
    );
  }
  if (request.routeOptions.config.carriesSecret) reply.header('cache-control', 'no-store');
  return reply
    .code(saved.status)
    .header('idempotent-replayed', 'true')
    .type('application/json; charset=utf-8')
    .send(body);
}

/**
 * Sends a change's answer once its write has happened. The write receives the sealed response to save
 * in its own transaction (undefined without an Idempotency-Key); if another request with the same key
 * won the race, its saved response is replayed instead and this write has been rolled back.
 */
export async function respondOnce(
  request: FastifyRequest,
  reply: FastifyReply,
  store: Store,
  change: Change<unknown>,
): Promise<FastifyReply> {
  const { at: now, status, body, write } = change;
  const context = request.idempotency;
  const response: IdempotentResponse | undefined = context
    ? {
        scope: context.scope,
        keyHash: context.keyHash,
        requestHash: context.requestHash,
        status,
        body: seal(context.sealKey, JSON.stringify(body)),
        createdAt: now.toISOString(),
        expiredBefore: new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString(),
      }
    : undefined;
  try {
    await write(response);
  } catch (error) {
    if (!(error instanceof IdempotencyKeyTakenError) || !context) throw error;
    const saved = await store.findIdempotentResponse(context.scope, context.keyHash, response!.expiredBefore);
    if (!saved) throw error;
    return replay(request, reply, saved);
  }
  return reply.code(status).send(body);
}

/** Who a saved answer belongs to: the credential itself, so only the same credential can replay it. */
function credentialScope(request: FastifyRequest): string {
  const auth = request.auth;
  if (auth.method === 'api_key' && auth.keyId !== null) return `key:${auth.keyId}`;
  if (auth.agentId !== null) return `token:${auth.agentId}:${[...auth.scopes].sort().join(' ')}:${auth.tier}`;
  return `ip:${request.ip}`;
}

export interface IdempotencyOptions {
  store: Store;
  clock: () => Date;
  /** The server-side secret every seal key is derived from (at least 32 bytes). */
  secret: Buffer;
}

export const idempotencyPlugin = fp<IdempotencyOptions>(
  async (app, { store, clock, secret }) => {
    app.decorateRequest('idempotency', null);
    // After validation: a malformed request is refused as usual and never consults saved responses.
    app.addHook('preHandler', async (request, reply) => {
      // Only routes that exist: an unknown path or method answers 404/405, whatever its body.
      if (request.method !== 'POST' || request.is404) return;
      const header = request.headers['idempotency-key'];
      if (header === undefined) return;
      if (typeof header !== 'string' || !KEY_SHAPE.test(header)) {
        throw badRequest('header Idempotency-Key must be 1-255 visible ASCII characters (a UUID is ideal)');
      }
      if (request.routeOptions.config.carriesSecret && header.length < SECRET_KEY_MIN_LENGTH) {
        throw badRequest(
          `header Idempotency-Key must be at least ${SECRET_KEY_MIN_LENGTH} random characters here (a UUID): the answer carries a secret`,
        );
      }
      const scope = credentialScope(request);
      request.idempotency = {
        scope,
        keyHash: sha256('idempotency-key', header).toString('hex'),
        requestHash: sha256(
          request.method,
          request.routeOptions.url ?? '',
          canonicalJson(request.params),
          canonicalJson(request.body),
        ).toString('hex'),
        sealKey: Buffer.from(hkdfSync('sha256', secret, 'registry-idempotency-seal', header, 32)),
      };
      const notBefore = new Date(clock().getTime() - IDEMPOTENCY_TTL_MS).toISOString();
      const saved = await store.findIdempotentResponse(scope, request.idempotency.keyHash, notBefore);
      if (saved) return replay(request, reply, saved);
    });
  },
  { name: 'registry-idempotency' },
);
