// GET /docs: the OpenAPI document as a page (Swagger UI), every asset served by the app from the
// @fastify/swagger-ui package, nothing from a CDN, and a content security policy that lets the page load
// nothing from anywhere else. The page loads (and shows, in its address box) the document the API serves,
// /v1/openapi.json, whose info.version is the package's. Its own routes are no API calls: outside the rate
// limits, so one visit costs the caller a single request (the document).
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

/** Where the page's initializer (@fastify/swagger-ui 6.1) points Swagger UI, and where it should. */
const PLUGIN_SPEC_URL = "resolveUrl('./json')";
const SPEC_URL = "resolveUrl('../v1/openapi.json')";

export const docsRoutes: FastifyPluginAsync = async (app) => {
  // Scoped to this plugin: the routes the UI plugin adds below, and only them.
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, apiCall: false };
  });
  app.addHook('onSend', async (request, _reply, payload) =>
    request.routeOptions.url === `${DOCS_PATH}/static/swagger-initializer.js` && typeof payload === 'string'
      ? payload.replace(PLUGIN_SPEC_URL, SPEC_URL)
      : payload,
  );
  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    staticCSP: CSP,
    validatorUrl: false,
    theme: { title: 'Knowledge Registry API' },
    logo: { type: 'image/svg+xml', content: LOGO },
    uiConfig: { deepLinking: true, displayOperationId: true, defaultModelsExpandDepth: 1, docExpansion: 'list' },
  });
};
