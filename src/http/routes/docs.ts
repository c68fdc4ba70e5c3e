// GET /docs: the OpenAPI document as a page (Swagger UI), every asset served by the app from the
// @fastify/swagger-ui package, nothing from a CDN, and a content security policy that lets the page load
// nothing from anywhere else.
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync } from 'fastify';

export const DOCS_PATH = '/docs';

/** Same origin only: no remote fonts, styles, images or validator badge, and no upgrade to https (plain-HTTP installs). */
const CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "frame-ancestors 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
].join('; ');

/** The page's top-left mark: the registry's name, in place of the framework's logo. */
const LOGO = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="260" height="40" viewBox="0 0 260 40">' +
    '<text x="0" y="28" font-family="sans-serif" font-size="22" font-weight="700" fill="#ffffff">Knowledge Registry</text></svg>',
);

export const docsRoutes: FastifyPluginAsync = async (app) => {
  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    staticCSP: CSP,
    validatorUrl: false,
    theme: { title: 'Knowledge Registry API' },
    logo: { type: 'image/svg+xml', content: LOGO },
    uiConfig: { deepLinking: true, displayOperationId: true, defaultModelsExpandDepth: 1, docExpansion: 'list' },
  });
};
