// The OpenAPI 3.1 document: generated from the route schemas, plus what every route gets from the
// plugins it passes through (Idempotency-Key on POSTs; 409, 413, 415 and 503 answers; rate-limit headers;
// who may call it), added here once so that the document describes the running API without a second copy of
// any route's shape. Schemas that appear whole in several places are named (components.schemas) and
// referenced, so generated clients get types such as `Skill`; the document passes Redocly's recommended
// rules and Spectral's oas rules (redocly.yaml, .spectral.yaml; test/http/openapi-lint.test.ts).
import { canonicalJson } from '../domain/canonical-json.js';
import type { SwaggerOptions } from '@fastify/swagger';
import { PACKAGE_VERSION } from '../version.js';
import type { Access } from '../domain/operations.js';
import { NAMED_SCHEMAS } from './schemas.js';

type Json = Record<string, unknown>;
type Response = { description?: string; headers?: Json; content?: Record<string, { schema?: unknown }> };
type Operation = {
  parameters?: unknown[];
  responses?: Record<string, Response>;
  security?: Record<string, string[]>[];
  summary?: string;
  'x-rate-limited'?: boolean;
};
type Document = {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Json; headers?: Json; securitySchemes?: Json };
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

const errorResponse = (description: string): Response => ({
  description,
  content: { 'application/json': { schema: ref('Error') } },
});

const IDEMPOTENCY_HEADER = {
  in: 'header',
  name: 'Idempotency-Key',
  required: false,
  description:
    'Any 1-255 visible ASCII characters (a UUID is ideal). A retry with the same key and body within 24 hours ' +
    'gets the original response (header Idempotent-Replayed: true) without doing the work again; the same key ' +
    'with a different request is a 409.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

/** What each error status means here (the error table of docs/api.md), as the response's description. */
const ERROR_DESCRIPTIONS: Record<string, string> = {
  '400': 'VALIDATION_ERROR: a parameter or the body breaks the schema (the message names the field)',
  '401': 'UNAUTHORIZED: no credential where one is required, or the credential was refused',
  '403': 'FORBIDDEN: the credential lacks the scope, or the caller does not own the object',
  '404': 'NOT_FOUND: no such object, or one the caller may not see',
  '409': 'CONFLICT',
  '429': 'RATE_LIMITED: over the per-minute limit of the caller; retry after Retry-After seconds',
};

const HEADERS = {
  'X-RateLimit-Limit': {
    description: 'Requests per minute allowed to this caller (its agent, or its address without a key)',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
  'WWW-Authenticate': {
    description:
      'Bearer challenge; `Bearer error="invalid_token"` when the credential sent was refused (on any answer to such a request)',
    schema: { type: 'string' },
  },
};

const NAMED = Object.entries(NAMED_SCHEMAS).map(
  ([name, schema]) => [name, JSON.parse(JSON.stringify(schema)) as Json] as const,
);
const NAME_OF = new Map<string, string>();
for (const [name, schema] of NAMED) if (!NAME_OF.has(canonicalJson(schema))) NAME_OF.set(canonicalJson(schema), name);

/** `schema` with every named schema in it (itself included, unless it is `self`) replaced by a $ref. */
function referNamed(schema: unknown, used: Set<string>, self?: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => referNamed(item, used));
  if (schema === null || typeof schema !== 'object') return schema;
  const name = NAME_OF.get(canonicalJson(schema));
  if (name !== undefined && name !== self) {
    used.add(name);
    return ref(name);
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, referNamed(value, used)]));
}

/** components.schemas: the named schemas the document uses, and the ones those use in turn. */
function namedComponents(used: Set<string>): Json {
  const components: Json = {};
  const pending = [...used];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (name in components) continue;
    const nested = new Set<string>();
    components[name] = referNamed(NAMED.find(([n]) => n === name)![1], nested, name);
    pending.push(...nested);
  }
  return Object.fromEntries(Object.entries(components).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function describeResponses(operation: Operation, method: string): void {
  const responses = operation.responses ?? {};
  operation.responses = responses;
  responses['503'] ??= errorResponse(
    'UNAVAILABLE: overloaded or a dependency is down; retry after Retry-After seconds',
  );
  if (operation['x-rate-limited']) responses['429'] ??= errorResponse(ERROR_DESCRIPTIONS['429']!);
  if (method === 'post') {
    operation.parameters = [...(operation.parameters ?? []), IDEMPOTENCY_HEADER];
    responses['409'] ??= errorResponse('CONFLICT: the Idempotency-Key was already used for a different request');
    responses['413'] ??= errorResponse('PAYLOAD_TOO_LARGE: the body is over 1 MiB');
    responses['415'] ??= errorResponse('UNSUPPORTED_MEDIA_TYPE: the body is not application/json');
  }
  for (const [status, response] of Object.entries(responses)) {
    if (status.startsWith('2') && (response.description === undefined || response.description === 'Default Response')) {
      response.description = operation.summary ?? 'OK';
      response.content ??= { 'application/json': { schema: { type: 'object' } } };
    }
    if (response.description === 'Error envelope') {
      response.description = ERROR_DESCRIPTIONS[status] ?? `${status} error`;
    }
    const headers: Json = { ...response.headers };
    if (operation['x-rate-limited']) {
      for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'])
        headers[name] = headerRef(name);
    }
    if (status === '429' || status === '503') headers['Retry-After'] = headerRef('Retry-After');
    if (status === '401') headers['WWW-Authenticate'] = headerRef('WWW-Authenticate');
    if (Object.keys(headers).length > 0) response.headers = headers;
  }
}

/**
 * A route's trailing wildcard (`/files/*`) is a path parameter named `*` to Fastify; OpenAPI wants a name:
 * `{path}`, the file's path inside the skill (slashes included).
 */
function nameWildcards(document: Document): void {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!path.endsWith('/{*}')) continue;
    for (const operation of Object.values(item)) {
      for (const parameter of (operation.parameters ?? []) as { name?: string; in?: string; description?: string }[]) {
        if (parameter.in === 'path' && parameter.name === '*') {
          parameter.name = 'path';
          parameter.description = "the file's path inside the skill, e.g. scripts/extract.py (slashes are part of it)";
        }
      }
    }
    delete document.paths![path];
    document.paths![`${path.slice(0, -'{*}'.length)}{path}`] = item;
  }
}

const needsCaller = (access: Access | undefined) => access !== undefined && access !== 'public';

/** Adds the plugins' answers, who may call each operation, and the named schemas to the generated document. */
function completeDocument(document: Document): Document {
  const used = new Set<string>();
  nameWildcards(document);
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      // Public /v1 operations take a key too (its tier's rate limit, its own private skills): optional auth.
      operation.security ??= path.startsWith('/v1/') ? [{}, { bearerAuth: [] }] : [];
      describeResponses(operation, method);
      delete operation['x-rate-limited'];
      item[method] = referNamed(operation, used) as Operation;
    }
  }
  document.components = { ...document.components, schemas: namedComponents(used), headers: HEADERS };
  return document;
}

export const openapiOptions: SwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'Knowledge Registry',
      version: PACKAGE_VERSION,
      description:
        'Agents register for API keys, contribute skills and knowledge units, search, validate, and export. ' +
        'Every error has the body { error: { code, message } }; a known path with a method it does not serve ' +
        'answers 405 METHOD_NOT_ALLOWED with an Allow header. The same registry serves MCP at POST /mcp ' +
        '(Streamable HTTP) and this document as a page at /docs.',
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: 'Knowledge Registry maintainers' },
    },
    servers: [{ url: '/', description: 'The registry that serves this document' }],
    tags: [
      { name: 'auth', description: 'API keys: register an agent, revoke a key' },
      { name: 'skills', description: 'Skills: SKILL.md packages of instructions for agents' },
      { name: 'knowledge', description: 'Knowledge units: structured findings agents contribute and validate' },
      { name: 'reputation', description: 'What agents earned by contributing and validating' },
      { name: 'export', description: 'Everything tied to an agent, for portability' },
      { name: 'moderation', description: 'Reports, appeals, holds and the public moderation log' },
      {
        name: 'advisories',
        description: 'Advisories about skill versions, as OSV records, and the audit of a lock file',
      },
      { name: 'operations', description: 'Health, readiness and this document' },
    ],
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key (reg_…) or, when the registry has OIDC on, a JWT of its identity provider',
        },
      },
    },
  },
  // Each route says here (its config) whether it needs a caller, which then must send a key, and whether it
  // is rate limited, for the headers its answers carry.
  transform: ({ schema, url, route }) => ({
    schema:
      schema === undefined
        ? schema
        : ({
            ...schema,
            ...(needsCaller(route.config?.access) ? { security: [{ bearerAuth: [] }] } : {}),
            'x-rate-limited': route.config?.rateLimit !== false,
          } as typeof schema),
    url,
  }),
  transformObject: (documents) =>
    completeDocument(('openapiObject' in documents ? documents.openapiObject : {}) as Document) as never,
};
