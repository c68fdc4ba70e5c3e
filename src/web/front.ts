// The web front for people, as the app wires it: the pages' routes, and the HTML 404 for browsers that
// ask for an address outside the API. Templates and files are read once, when the app is built.
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { Context } from '../service/context.js';
import { loadAssets } from './assets.js';
import { htmlNotFoundFirst } from './errors.js';
import { Pages } from './render.js';
import { webRoutes } from './routes.js';

export interface WebFront {
  /** The not-found handler's pre-handler: `next` (the rate limit), then the HTML 404 where a browser asks for a page. */
  notFoundFirst(app: FastifyInstance, next?: preHandlerAsyncHookHandler): preHandlerAsyncHookHandler;
  register(app: FastifyInstance, ctx: Context): Promise<void>;
}

export function webFront(): WebFront {
  const assets = loadAssets();
  const pages = new Pages(assets);
  return {
    notFoundFirst: (app, next) =>
      htmlNotFoundFirst(pages, (path) => app.routeCatalogue.methodsFor(path) !== undefined, next),
    register: async (app, ctx) => {
      await app.register(webRoutes, { ctx, pages, assets });
    },
  };
}
