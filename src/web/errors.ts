// Errors on the pages are pages: the same statuses the API answers (404 for anything the caller may not
// see, exactly as for an id that never existed; 400 naming the parameter; 429 with Retry-After; 503),
// written for people, never a stack or a store message. The JSON envelope stays with the API.
import type { FastifyError, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { ApiError } from '../domain/errors.js';
import { refusalOf } from '../service/errors.js';
import { sendPage } from './headers.js';
import type { Pages } from './render.js';

interface ErrorView {
  status: number;
  heading: string;
  message: string;
  headers: Record<string, string>;
}

const NOT_FOUND_MESSAGE =
  'There is nothing at this address: it may be mistyped, or what it showed was deleted or is not public.';

function view(
  error: FastifyError & { validation?: unknown[]; validationContext?: string },
  request: FastifyRequest,
): ErrorView {
  // A malformed id or agent is an unknown one: the same page as any other address with nothing there.
  if (error.validation && error.validationContext === 'params')
    return { status: 404, heading: 'Not found', message: NOT_FOUND_MESSAGE, headers: {} };
  // The framework's own errors carry their status; every other failure is heard as every door hears it
  // (service/errors.ts, which also logs what it keeps from the caller).
  const refused = error instanceof ApiError || error.statusCode === undefined ? refusalOf(error, request.log) : null;
  const headers = refused?.headers ?? {};
  const status = refused?.statusCode ?? error.statusCode ?? 500;
  const message = refused?.message ?? error.message;
  switch (status) {
    case 400:
      return { status, heading: 'This address has a parameter the page cannot read', message, headers };
    case 404:
      return { status, heading: 'Not found', message: NOT_FOUND_MESSAGE, headers };
    case 429:
      return {
        status,
        heading: 'Too many requests',
        message: `${message}. The pages share the API's per-caller limits.`,
        headers,
      };
    case 503:
      return {
        status,
        heading: 'Unavailable for a moment',
        message: 'The registry cannot answer right now; retry shortly.',
        headers: { 'retry-after': '5', ...headers },
      };
    default:
      if (status >= 400 && status < 500)
        return { status, heading: 'This request cannot be answered', message, headers };
      if (!refused) request.log.error({ err: error }, 'page failed');
      return {
        status: 500,
        heading: 'Something went wrong',
        message: 'The page could not be made; the request id in the logs has the details.',
        headers,
      };
  }
}

export function sendErrorPage(
  pages: Pages,
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const { status, heading, message, headers } = view(error, request);
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  let html: string;
  try {
    html = pages.render('error', { title: heading }, { heading, message });
  } catch (failure) {
    request.log.error({ err: failure }, 'error page failed');
    html = `<!doctype html><html lang="en"><title>${status}</title><h1>${status}</h1>`;
  }
  return sendPage(reply, status, html);
}

/** Paths of the API and the machine-facing routes: their unknown addresses keep the JSON envelope. */
const MACHINE_PATHS = /^\/(v1|mcp|docs|healthz|readyz|\.well-known)(\/|$)/;

/**
 * The not-found handler's pre-handler for the whole app: after `next` (the rate limit), a browser asking
 * for an unknown address outside the API gets the HTML 404 page; everything else goes on to the JSON
 * envelope (unknown API paths, known paths with another method, clients that do not ask for HTML).
 */
export function htmlNotFoundFirst(
  pages: Pages,
  isKnownPath: (path: string) => boolean,
  next?: preHandlerAsyncHookHandler,
): preHandlerAsyncHookHandler {
  return async function (this: unknown, request, reply) {
    if (next) await next.call(this as never, request, reply);
    if (reply.sent) return;
    const path = request.url.split('?')[0] ?? '/';
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    if (MACHINE_PATHS.test(path) || isKnownPath(path) || !(request.headers.accept ?? '').includes('text/html')) return;
    const error = Object.assign(new Error('not found'), { statusCode: 404 }) as FastifyError;
    return sendErrorPage(pages, error, request, reply);
  };
}
