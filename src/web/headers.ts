// What every page response says about itself: a strict content security policy (scripts and styles
// from this origin only, nothing inline, nothing from anywhere else, no framing, forms to this origin,
// DOM script sinks closed by Trusted Types), no referrer, and a cache policy by kind.
import type { FastifyReply } from 'fastify';

export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

export const HTML_TYPE = 'text/html; charset=utf-8';
/** Fingerprinted files never change under their URL. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The headers of everything the web front sends (pages, error pages, its files). */
export function setFrontHeaders(reply: FastifyReply): void {
  reply.header('content-security-policy', PAGE_CSP);
  reply.header('x-frame-options', 'DENY');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('cross-origin-opener-policy', 'same-origin');
  reply.header('cross-origin-resource-policy', 'same-origin');
}

/** A page: HTML, shown fresh each time (it depends on the data and on who asks). */
export function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  setFrontHeaders(reply);
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-cache');
  reply.header('vary', 'authorization');
  return reply.code(status).type(HTML_TYPE).send(html);
}
