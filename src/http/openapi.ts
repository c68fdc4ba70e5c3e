// The OpenAPI 3.1 document: generated from the route schemas, plus what every route gets from the
// plugins it passes through (Idempotency-Key on POSTs; 409, 413, 415 and 503 answers), added here once
// so that the document describes the running API without a second copy of any route's shape.
import type { SwaggerOptions } from '@fastify/swagger';
import { ErrorBody } from './schemas.js';

type Operation = {
  parameters?: unknown[];
  responses?: Record<string, unknown>;
};

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: JSON.parse(JSON.stringify(ErrorBody)) as unknown } },
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

/** Adds the plugins' answers to every operation of the generated document. */
function addSharedBehaviour(document: { paths?: Record<string, Record<string, Operation>> }) {
  for (const item of Object.values(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      const responses = operation.responses ?? {};
      operation.responses = responses;
      responses['503'] ??= errorResponse('UNAVAILABLE: overloaded or a dependency is down; retry after Retry-After seconds');
      if (method !== 'post') continue;
      operation.parameters = [...(operation.parameters ?? []), IDEMPOTENCY_HEADER];
      responses['409'] ??= errorResponse('CONFLICT: the Idempotency-Key was already used for a different request');
      responses['413'] ??= errorResponse('PAYLOAD_TOO_LARGE: the body is over 1 MiB');
      responses['415'] ??= errorResponse('UNSUPPORTED_MEDIA_TYPE: the body is not application/json');
    }
  }
  return document;
}

export const openapiOptions: SwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'Knowledge Registry',
      version: '1.0.0',
      description:
        'Agents register for API keys, contribute skills and knowledge units, search, validate, and export. ' +
        'Every error has the body { error: { code, message } }; a known path with a method it does not serve ' +
        'answers 405 METHOD_NOT_ALLOWED with an Allow header.',
    },
    components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
  },
  transformObject: (documents) =>
    addSharedBehaviour(('openapiObject' in documents ? documents.openapiObject : {}) as Parameters<typeof addSharedBehaviour>[0]) as never,
};
