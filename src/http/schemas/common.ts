// What every route's schemas share: the error envelope and errors(), timestamps, closed objects, id
// parameters, and the pieces of list query strings and pages (pageOf).
import { Type, type Static, type TSchema } from 'typebox';

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });
export const closed = { additionalProperties: false } as const;

export const ErrorBody = Type.Object(
  { error: Type.Object({ code: Type.String(), message: Type.String() }) },
  { description: 'Error envelope' },
);

/** The error responses a route can give, for its OpenAPI entry. */
export function errors(...statuses: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBody]));
}

export const Limit = Type.Optional(
  Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'page size, 1..100' }),
);
export const Offset = Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 }));
export const Q = Type.Optional(
  Type.String({
    maxLength: 500,
    description:
      'natural language, as an agent writes it: stop words dropped, an item matches when it shares any remaining word ' +
      '(or, with embeddings on, its meaning is close enough); best match first, an exact name or title first',
  }),
);

export const pageOf = <T extends TSchema>(item: T, description: string) =>
  Type.Object(
    {
      data: Type.Array(item),
      total: Type.Integer({ description: 'every match, not just this page (with q, at most 1000: see capped)' }),
      offset: Type.Integer(),
      limit: Type.Integer(),
      capped: Type.Optional(
        Type.Boolean({
          description: 'with q only: true when more than 1000 items matched; total is then 1000 and paging stops there',
        }),
      ),
    },
    { description },
  );

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, closed);
export type IdParams = Static<typeof IdParams>;
