// Idempotency-Key on every POST: a retry with the same key and body gets the original response without
// doing the work again; the same key with a different request is a 409. Responses are kept 24 hours.
//
// The saved response is written in the same transaction as the change it answers (see the Store), and it
// is sealed with AES-256-GCM under a key derived from the client's Idempotency-Key, which the server never
// stores: a registration's raw API key is replayable to its client, yet unreadable from the database.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest, conflict } from '../domain/errors.js';
import type { Change } from '../service/context.js';
import { IdempotencyKeyTakenError, type IdempotentResponse, type SavedResponse, type Store } from '../store/store.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

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

/** JSON with object keys sorted, so the same body always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

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
  return reply
    .code(saved.status)
    .header('idempotent-replayed', 'true')
    .type('application/json; charset=utf-8')
    .send(unseal(context.sealKey, saved.body));
}

/**
 * Sends a change's answer once its write has happened. The write receives the sealed response to save
 * in its own transaction (undefined without an Idempotency-Key); if another request with the same key
 * won the race, its saved response is replayed instead and this write has been rolled back.
 */
export async function respondOnce(request: FastifyRequest, reply: FastifyReply, store: Store, change: Change<unknown>): Promise<FastifyReply> {
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

export const idempotencyPlugin = fp<{ store: Store; clock: () => Date }>(
  async (app, { store, clock }) => {
    app.decorateRequest('idempotency', null);
    // After validation: a malformed request is refused as usual and never consults saved responses.
    app.addHook('preHandler', async (request, reply) => {
      if (request.method !== 'POST') return;
      const header = request.headers['idempotency-key'];
      if (header === undefined) return;
      if (typeof header !== 'string' || !KEY_SHAPE.test(header)) {
        throw badRequest('header Idempotency-Key must be 1-255 visible ASCII characters (a UUID is ideal)');
      }
      // Keys are per agent (anonymous registrations: per client address), so agents cannot collide.
      const scope = request.auth.agentId !== null ? `agent:${request.auth.agentId}` : `ip:${request.ip}`;
      request.idempotency = {
        scope,
        keyHash: sha256('idempotency-key', header).toString('hex'),
        requestHash: sha256(request.method, request.routeOptions.url ?? '', canonical(request.params), canonical(request.body)).toString('hex'),
        sealKey: sha256('idempotency-seal', header),
      };
      const notBefore = new Date(clock().getTime() - IDEMPOTENCY_TTL_MS).toISOString();
      const saved = await store.findIdempotentResponse(scope, request.idempotency.keyHash, notBefore);
      if (saved) return replay(request, reply, saved);
    });
  },
  { name: 'registry-idempotency' },
);
