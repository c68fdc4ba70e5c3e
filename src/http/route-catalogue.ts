// Every route the app serves, with who may call it, recorded as routes are added. The not-found handler
// asks it which methods a known path has (405 with Allow), and tests walk it, so a new route is covered
// by the shared credential checks the moment it exists.
import type { FastifyInstance } from 'fastify';
import type { Access } from '../domain/operations.js';

export interface CataloguedRoute {
  method: string;
  /** The path pattern, e.g. `/v1/knowledge/:id`. */
  url: string;
  access: Access;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeCatalogue: RouteCatalogue;
  }
}

export class RouteCatalogue {
  readonly routes: CataloguedRoute[] = [];
  private readonly patterns = new Map<string, { pattern: RegExp; methods: Set<string> }>();

  add(method: string, url: string, access: Access): void {
    // Fastify adds a HEAD route beside each GET: a method of the path, not a route of its own.
    if (method !== 'HEAD') this.routes.push({ method, url, access });
    const source = `^${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`;
    const entry = this.patterns.get(source) ?? { pattern: new RegExp(source), methods: new Set<string>() };
    this.patterns.set(source, entry);
    entry.methods.add(method);
  }

  /** The methods served on the path that `path` matches, or undefined for an unknown path. */
  methodsFor(path: string): Set<string> | undefined {
    return [...this.patterns.values()].find((r) => r.pattern.test(path))?.methods;
  }
}

/** Decorates `app.routeCatalogue` and fills it from every route registered after this call. */
export function installRouteCatalogue(app: FastifyInstance): RouteCatalogue {
  const catalogue = new RouteCatalogue();
  app.decorate('routeCatalogue', catalogue);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) catalogue.add(method, route.url, route.config?.access ?? 'public');
  });
  return catalogue;
}
