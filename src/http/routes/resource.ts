// How a route file declares its routes: every route of a resource under its tag in the OpenAPI document,
// each with who may call it (the operation's access, checked before the body is validated; the document
// then asks for a key, openapi.ts) beside its documentation and schemas.
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  ContextConfigDefault,
  FastifyContextConfig,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import type { Context } from '../../service/context.js';
import type { Access } from '../../domain/operations.js';

type App = Parameters<FastifyPluginAsyncTypebox>[0];

type Handler<S extends FastifySchema> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  S,
  TypeBoxTypeProvider
>;

/** A route's schema with its documentation, and what the route asks of the app besides. */
type Declared = FastifySchema & {
  summary: string;
  operationId: string;
  description: string;
  /** Who may call it; anyone when absent. */
  access?: Access;
  /** Route options other than access (rate limit, a secret in the answer). */
  config?: FastifyContextConfig;
  /** false: answers are exact bytes, never compressed (their digests are checked, archives are compressed already). */
  compress?: false;
};

/** How a resource declares a route: `route.get(url, declared, handler)`, likewise `post` and `delete`. */
export type Route = ReturnType<typeof adder>;

function adder(app: App, tag: string) {
  const add =
    (method: 'GET' | 'POST' | 'DELETE') =>
    <S extends Declared>(url: string, declared: S, handler: Handler<S>): void => {
      const { access, config, compress, ...schema } = declared;
      app.route({
        method,
        url,
        ...(compress === false ? { compress } : {}),
        ...(access !== undefined || config !== undefined ? { config: { ...config, access } } : {}),
        // The schema the handler was typed against, less the route's own keys, with the tag.
        schema: { ...schema, tags: [tag] } as unknown as S,
        handler,
      });
    };
  return { get: add('GET'), post: add('POST'), delete: add('DELETE') };
}

/** The plugin of the resource tagged `tag`, whose routes `routes` adds. */
export function resourceRoutes(
  tag: string,
  routes: (route: Route, ctx: Context) => void,
): FastifyPluginAsyncTypebox<Context> {
  return async (app, ctx) => routes(adder(app, tag), ctx);
}
