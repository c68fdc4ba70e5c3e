// Authentication: turns `Authorization: Bearer …` into the request's AuthContext. A credential that does not
// authenticate leaves the request anonymous (with `WWW-Authenticate: Bearer error="invalid_token"`); then,
// before the body is validated, the route's declared access admits the caller or answers 401 or 403.
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { admit, type Access } from '../domain/operations.js';
import { ANONYMOUS, type Caller } from '../domain/caller.js';
import { callerOfApiKey } from '../service/keys.js';
import type { Store } from '../store/store.js';

/** The specification's name for the caller the authentication layer attaches to every request. */
export type AuthContext = Caller;

/** Turns one kind of bearer token into an identity, or null when the token does not authenticate. */
export type BearerVerifier = (token: string) => Promise<Caller | null>;

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
}

const MAX_TOKEN_LENGTH = 8192;
const BEARER = /^Bearer +([^\s]+) *$/i;

/** API keys, verified as every door verifies them (service/keys.ts). */
export const apiKeyVerifier = (store: Store): BearerVerifier => callerOfApiKey(store);

export interface AuthOptions {
  apiKeys: BearerVerifier;
  /** Verifies bearer tokens that are not API keys (JWTs), when OIDC is configured. */
  jwt?: BearerVerifier | undefined;
}

async function authenticate(request: FastifyRequest, options: AuthOptions): Promise<AuthContext | null> {
  const match = BEARER.exec(request.headers.authorization ?? '');
  const token = match?.[1];
  if (!token || token.length > MAX_TOKEN_LENGTH) return null;
  // Tokens that do not start with reg_ are JWTs, verified before (and instead of) the key layer (docs/oidc.md).
  if (!token.startsWith('reg_')) return options.jwt ? options.jwt(token) : null;
  return options.apiKeys(token);
}

export const authPlugin = fp<AuthOptions>(
  async (app, options) => {
    app.decorateRequest('auth', null as unknown as AuthContext);
    app.addHook('onRequest', async (request, reply) => {
      request.auth = ANONYMOUS;
      if (request.headers.authorization === undefined) return;
      const context = await authenticate(request, options);
      if (context) request.auth = context;
      else reply.header('www-authenticate', 'Bearer error="invalid_token"');
    });
    // Before body validation, so an unauthenticated caller hears 401 (not 400) and learns nothing more.
    app.addHook('preValidation', async (request) => {
      admit(request.routeOptions.config.access ?? 'public', request.auth);
    });
  },
  { name: 'registry-auth' },
);
