// One place that turns every error — ours, the schema validator's and the framework's — into
// `{ error: { code, message } }`, and answers unknown routes (404) and known paths with a wrong method (405).
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { ApiError, CODE_FOR_STATUS, badRequest, methodNotAllowed, notFound } from '../domain/errors.js';
import { refusalOf } from '../service/errors.js';
import type { RouteCatalogue } from './route-catalogue.js';
import { validationMessage, type AjvIssue } from './schemas/validation.js';

function send(reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  if (error.statusCode === 401 && !reply.hasHeader('www-authenticate')) {
    reply.header('www-authenticate', 'Bearer realm="knowledge-registry"');
  }
  return reply.code(error.statusCode).send({ error: { code: error.code, message: error.message } });
}

/** Maps any thrown value to an ApiError: the framework's own errors here, every other one as every door does. */
function toApiError(error: FastifyError & { validation?: AjvIssue[] }, request: FastifyRequest): ApiError {
  if (error instanceof ApiError || !(error instanceof Error) || error.statusCode === undefined)
    return refusalOf(error, request.log);
  if (error.validation && error.validation.length > 0) {
    return new ApiError(400, 'VALIDATION_ERROR', validationMessage(error.validation[0]!, error.validationContext));
  }
  const status = error.statusCode ?? 500;
  if (status === 429) return new ApiError(429, 'RATE_LIMITED', error.message);
  if (status >= 400 && status < 500) {
    const code = CODE_FOR_STATUS[status] ?? 'VALIDATION_ERROR';
    const message =
      error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? `unsupported content type ${JSON.stringify(request.headers['content-type'] ?? '')}: send application/json`
        : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? 'request body is larger than 1 MiB'
          : error instanceof SyntaxError
            ? `body is not valid JSON: ${error.message}`
            : error.message;
    return new ApiError(CODE_FOR_STATUS[status] ? status : 400, code, message);
  }
  return refusalOf(error, request.log);
}

/**
 * Errors below the router (Node's HTTP parser: oversized headers, a request that never finished
 * arriving, malformed HTTP) get the envelope too, then the connection is closed. 431 and 408 keep their
 * HTTP meaning; the error table (docs/api.md) has no row for them, so their codes say what happened.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'PAYLOAD_TOO_LARGE', 'request headers are larger than 16 KiB']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'REQUEST_TIMEOUT', 'the request did not arrive in time']
        : [400, 'VALIDATION_ERROR', 'malformed HTTP request'];
  const body = JSON.stringify({ error: { code, message } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * Errors the router raises before any route or hook runs: a path whose percent-encoding does not
 * decode (FST_ERR_BAD_URL), or a path segment over maxParamLength. Fastify answers these with its own
 * body unless told otherwise.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // These replies skip the hooks, the one that echoes the request id included.
  reply.header('x-request-id', request.id);
  // The message never echoes the path: it may be kilobytes long.
  const message =
    error.code === 'FST_ERR_BAD_URL'
      ? 'the URL path is not valid: it has a malformed percent-encoding'
      : 'the URL path is not valid';
  void send(reply, badRequest(message));
}

/** An unknown method on a known path answers 405 with Allow; an unknown path, 404. */
export function installErrorEnvelope(
  app: FastifyInstance,
  routes: RouteCatalogue,
  notFoundPreHandler?: preHandlerAsyncHookHandler,
): void {
  app.setErrorHandler((error: FastifyError, request, reply) => send(reply, toApiError(error, request)));
  app.setNotFoundHandler({ preHandler: notFoundPreHandler }, async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const methods = routes.methodsFor(path);
    if (methods && !methods.has(request.method)) {
      return send(reply, methodNotAllowed(request.method, [...methods].sort()));
    }
    return send(reply, notFound(`route ${request.method} ${path}`));
  });
}
