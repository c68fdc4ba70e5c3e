// POST /mcp: the MCP server over Streamable HTTP, stateless (a server per request), as an ordinary route, so
// it passes the same hooks as every REST route: authentication, rate limits, the in-flight cap, the JSON
// parser, the error envelope. The SDK's web-standard transport takes the parsed body and answers a Response
// (JSON, never a stream), which the route sends as its reply.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { badRequest, forbidden, unauthorized } from '../domain/errors.js';
import { nestsDeeperThan } from '../domain/text.js';
import type { Context } from '../service/context.js';
import { createMcpServer } from './server.js';
import { serviceBackend } from './service-backend.js';

export const MCP_PATH = '/mcp';
/** Arrays and objects in one JSON-RPC message, nested at most this deep (the deepest tool input needs 4). */
const MAX_MESSAGE_DEPTH = 32;

/** The request as the web-standard transport reads it: the headers it checks, the body already parsed. */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) headers.set(name, value.join(', '));
  }
  return new Request(`http://${request.host || 'localhost'}${request.url}`, { method: request.method, headers });
}

/**
 * Browsers send Origin; a page on another site must not reach the server through DNS rebinding (the MCP
 * transport's rule). Clients that are not browsers send none.
 */
function assertSameOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    host = '';
  }
  if (host !== request.host) throw forbidden(`requests from origin ${origin} are not accepted here`);
}

export const mcpRoutes: FastifyPluginAsync<Context> = async (app, ctx) => {
  app.post(
    MCP_PATH,
    {
      // A door of its own, with its own description (docs/mcp.md), not a REST operation.
      schema: { hide: true },
    },
    async (request, reply) => {
      // REST lets a refused credential through as anonymous; an MCP client cannot see the
      // WWW-Authenticate header of each answer, so here a key that does not authenticate is a 401 at once.
      if (request.headers.authorization !== undefined && !request.auth.authenticated) {
        throw unauthorized(
          'the API key was not accepted (unknown, revoked or malformed); remove it to use the read tools anonymously',
        );
      }
      assertSameOrigin(request);
      // One message per request (MCP has had no batches since 2025-06-18): a batch would let one request,
      // counted once by the rate limit, run hundreds of tool calls.
      if (Array.isArray(request.body))
        throw badRequest('JSON-RPC batches are not accepted here: send one message per request');
      // The SDK validates a message recursively: a deeply nested one would exhaust its stack. No tool takes such arguments.
      if (nestsDeeperThan(request.body, MAX_MESSAGE_DEPTH))
        throw badRequest(`the message nests more than ${MAX_MESSAGE_DEPTH} levels deep`);
      const server = createMcpServer(serviceBackend(ctx, request.auth, request.log));
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      try {
        const response = await transport.handleRequest(webRequest(request), { parsedBody: request.body });
        reply.code(response.status);
        for (const [name, value] of response.headers) reply.header(name, value);
        const body = await response.text();
        return reply.send(body === '' ? undefined : body);
      } finally {
        await server.close();
      }
    },
  );
};
