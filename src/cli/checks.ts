// The command line's inputs checked against the API's own TypeBox schemas before anything is sent, with the
// same validator the registry uses (Ajv; text coerced to numbers as a query string is), so a value the
// registry would refuse is a usage error here (exit 2) that names the flag or argument, not a 400 there.
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { TSchema } from 'typebox';
import { UsageError } from './context.js';

const common = { allErrors: false, removeAdditional: false, useDefaults: false, strict: false } as const;
const coercing = addFormats.default(new Ajv({ ...common, coerceTypes: 'array' }));
const strict = addFormats.default(new Ajv({ ...common, coerceTypes: false }));
const compiled = new Map<TSchema, ReturnType<Ajv['compile']>>();

function validatorFor(schema: TSchema, coerce: boolean) {
  const key = coerce ? schema : ({ strict: schema } as unknown as TSchema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = (coerce ? coercing : strict).compile(schema as object);
    compiled.set(key, validate);
  }
  return validate;
}

/** `/content/description` → `content.description`. */
const fieldOf = (error: ErrorObject) =>
  [
    ...error.instancePath.split('/').slice(1),
    ...(error.keyword === 'required' ? [String(error.params.missingProperty)] : []),
  ]
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');

/** A value as the message quotes it: JSON, cut to a readable length. */
function quoted(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function describe(error: ErrorObject, name: string, value: unknown): string {
  switch (error.keyword) {
    case 'required':
      return `${name} is required`;
    case 'additionalProperties':
      return `${name ? `${name}.` : ''}${String(error.params.additionalProperty)} is not a known field`;
    case 'enum':
      return `${name} must be one of ${(error.params.allowedValues as unknown[]).join(', ')}, not ${quoted(value)}`;
    default:
      return `${name} ${error.message ?? 'is invalid'}${value !== undefined && typeof value !== 'object' ? `, not ${quoted(value)}` : ''}`;
  }
}

const valueAt = (input: unknown, field: string): unknown =>
  field === ''
    ? input
    : field
        .split('.')
        .reduce<unknown>(
          (at, part) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[part] : undefined),
          input,
        );

/**
 * `input` checked against `schema`; answers it with the schema's coercions (query strings: "20" → 20). A
 * failure is a UsageError naming the offending field by what the person typed: `names` maps a field
 * (`min_quality`) to its flag (`--min-quality`); other fields keep their name, prefixed by `where`.
 */
export function checked<T>(
  schema: TSchema,
  input: unknown,
  options: { names?: Record<string, string>; where?: string; coerce?: boolean } = {},
): T {
  const copy = structuredClone(input);
  const validate = validatorFor(schema, options.coerce ?? true);
  if (validate(copy)) return copy as T;
  const error = validate.errors![0]!;
  const field = fieldOf(error);
  // An item of a list is named by its list's flag: `--scopes must be one of …, not "root"`.
  const flag = options.names?.[field] ?? options.names?.[field.split('.')[0]!];
  const name = flag ?? (options.where ? `${options.where}: ${field || 'the document'}` : field || 'the input');
  throw new UsageError(describe(error, name, valueAt(input, field)));
}
