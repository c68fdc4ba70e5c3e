// Scope and identity checks the routes call; ownership rules live in the routes themselves.
import type { FastifyRequest } from 'fastify';
import type { Scope } from '../domain/model.js';
import type { AuthContext } from './auth.js';
import { forbidden, unauthorized } from './errors.js';

export type Agent = AuthContext & { authenticated: true; agentId: string };

export function requireAgent(request: FastifyRequest): Agent {
  const auth = request.auth;
  if (!auth.authenticated || auth.agentId === null) throw unauthorized();
  return auth as Agent;
}

export function requireScope(request: FastifyRequest, scope: Scope): Agent {
  const agent = requireAgent(request);
  if (!agent.scopes.includes(scope)) throw forbidden(`this credential lacks the ${scope} scope`);
  return agent;
}

export const isAdmin = (auth: AuthContext) => auth.authenticated && auth.scopes.includes('admin');
