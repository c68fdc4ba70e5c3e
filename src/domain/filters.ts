// Every list filter, declared once per kind: the attribute it reads, its operator, and its parameter.
// From these declarations come the conditions a list asks (`listCondition`, visibility among them: see
// access.ts), and from a condition the three places that apply it: SQL in the store (store/reads/filters.ts),
// the search index's filter as data (search/filter.ts, run by scoring workers too), and `matches` below, the
// plain reference the other two are tested against. The list parameters' schemas (REST query strings, MCP
// arguments, the command line's flags, the web form) are made from the same declarations.
import { Type, type Static, type TOptional, type TSchema } from 'typebox';
import { badRequest } from './errors.js';
import { UNIT_TYPES } from './model.js';
import { commaList } from './query-text.js';
import { tagKeys, TAG_MAX_LENGTH } from './tags.js';

/** What an item is filtered on: each kind has some of these (its declaration, and the visibility rule). */
export type FilterAttr =
  'domain' | 'tags' | 'quality' | 'conformant' | 'publisher' | 'name' | 'type' | 'visibility' | 'listed' | 'held';

/** A condition on an item's attributes: leaves joined by `and` and `or`. */
export type Condition =
  | { attr: FilterAttr; equals: string | boolean }
  | { attr: FilterAttr; anyOf: readonly string[] }
  | { attr: FilterAttr; allOf: readonly string[] }
  | { attr: FilterAttr; atLeast: number }
  | { and: readonly Condition[] }
  | { or: readonly Condition[] };

/** One item's attributes as a condition reads them (absent: the item has none). */
export type FilterValues = Partial<Record<FilterAttr, string | number | boolean | readonly string[] | null>>;

/** Whether an item's attributes satisfy a condition: the reference every other evaluation is tested against. */
export function matches(condition: Condition, item: FilterValues): boolean {
  if ('and' in condition) return condition.and.every((c) => matches(c, item));
  if ('or' in condition) return condition.or.some((c) => matches(c, item));
  const value = item[condition.attr];
  if ('equals' in condition) return value === condition.equals;
  if ('anyOf' in condition) return typeof value === 'string' && condition.anyOf.includes(value);
  if ('allOf' in condition)
    return Array.isArray(value) && condition.allOf.every((wanted) => (value as readonly string[]).includes(wanted));
  return typeof value === 'number' && value >= condition.atLeast;
}

/** Every condition together (none: every item). */
export const allOf = (conditions: readonly (Condition | null)[]): Condition => {
  const present = conditions.filter((c): c is Condition => c !== null);
  return present.length === 1 ? present[0]! : { and: present };
};

export type FilterOp = 'equals' | 'any-of' | 'all-of' | 'at-least';

/** One filterable field of a list: the attribute it reads, how, and its parameter's schema. */
export interface FilterField {
  attr: FilterAttr;
  op: FilterOp;
  /** The parameter as it arrives (REST query strings, MCP arguments, the command line's flags). */
  schema: TSchema;
  /** A list's values (any-of, all-of): at most this many, and each mapped to the form the store keeps. */
  list?: { max: number; each: (values: string[], param: string) => string[] };
}

const text = (maxLength: number, description: string) => Type.String({ minLength: 1, maxLength, description });
const MAX_TAG_FILTERS = 20;

const tagsField: FilterField = {
  attr: 'tags',
  op: 'all-of',
  schema: Type.String({
    maxLength: MAX_TAG_FILTERS * (TAG_MAX_LENGTH + 5),
    description: `comma-separated; an item must carry every tag (at most ${MAX_TAG_FILTERS}, letter case ignored)`,
  }),
  list: {
    max: MAX_TAG_FILTERS,
    each: (values, param) => {
      if (values.some((t) => t.length > TAG_MAX_LENGTH))
        throw badRequest(`query parameter ${param}: each tag is at most ${TAG_MAX_LENGTH} characters`);
      return tagKeys(values);
    },
  },
};
const domainField: FilterField = { attr: 'domain', op: 'equals', schema: text(100, 'only items of this domain') };
const qualityField: FilterField = {
  attr: 'quality',
  op: 'at-least',
  schema: Type.Number({ minimum: 0, maximum: 1, description: 'minimum quality score, 0 to 1' }),
};

/** The filters of skill lists, by parameter name. */
export const SKILL_FILTERS = {
  domain: domainField,
  tags: tagsField,
  min_quality: qualityField,
  conformant: {
    attr: 'conformant',
    op: 'equals',
    schema: Type.Boolean({ description: 'only skills that follow (true) or break (false) the Agent Skills format' }),
  },
  publisher: { attr: 'publisher', op: 'equals', schema: text(256, "only this agent's skills") },
  name: { attr: 'name', op: 'equals', schema: text(64, 'only the skill of this name (with publisher: at most one)') },
} satisfies Record<string, FilterField>;

/** The filters of knowledge unit lists, by parameter name. */
export const UNIT_FILTERS = {
  types: {
    attr: 'type',
    op: 'any-of',
    schema: Type.String({
      maxLength: 200,
      description: `comma-separated unit types, any of: ${UNIT_TYPES.join(', ')}`,
    }),
    list: {
      max: UNIT_TYPES.length,
      each: (values, param) => {
        const unknown = values.filter((t) => !(UNIT_TYPES as readonly string[]).includes(t));
        if (unknown.length > 0)
          throw badRequest(
            `query parameter ${param} has unknown values (${unknown.join(', ')}); use ${UNIT_TYPES.join(', ')}`,
          );
        return values;
      },
    },
  },
  domain: domainField,
  min_quality: qualityField,
  tags: tagsField,
} satisfies Record<string, FilterField>;

export type FilterFields = Record<string, FilterField>;
/** A list's filter parameters as they arrive, typed from its declaration. */
export type FilterParams<F extends FilterFields> = { [K in keyof F]?: Static<F[K]['schema']> };

/** The parameters' schemas of a declaration, each optional, for a query string or an argument object. */
export function filterSchemas<F extends FilterFields>(fields: F): { [K in keyof F]: TOptional<F[K]['schema']> } {
  return Object.fromEntries(Object.entries(fields).map(([param, f]) => [param, Type.Optional(f.schema)])) as {
    [K in keyof F]: TOptional<F[K]['schema']>;
  };
}

/**
 * The conditions the given parameters ask, one per parameter present (a list's empty value asks nothing);
 * a bad value is a 400 naming its parameter.
 */
export function filterConditions(fields: FilterFields, params: Readonly<Record<string, unknown>>): Condition[] {
  const conditions: Condition[] = [];
  for (const [param, field] of Object.entries(fields)) {
    const value = params[param];
    if (value === undefined) continue;
    if (field.list) {
      const values = commaList(String(value));
      if (values.length === 0) continue;
      if (values.length > field.list.max)
        throw badRequest(`query parameter ${param} may name at most ${field.list.max} values`);
      const kept = field.list.each(values, param);
      conditions.push(field.op === 'all-of' ? { attr: field.attr, allOf: kept } : { attr: field.attr, anyOf: kept });
    } else if (field.op === 'at-least') conditions.push({ attr: field.attr, atLeast: Number(value) });
    else conditions.push({ attr: field.attr, equals: value as string | boolean });
  }
  return conditions;
}
