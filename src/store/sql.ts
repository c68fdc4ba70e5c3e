// One way to write a query for both backends. `sql` is a tagged template whose values become parameters,
// rendered with each dialect's placeholders (`?` for SQLite, `$1, $2…` for PostgreSQL); `raw` inserts
// trusted SQL text (column lists, orderings); `byDialect` names the few things the two spell differently,
// once, where they differ. `Db` runs such queries: each backend implements it over its connection, and
// the store's reads (reads/) are written once against it.
import type { Decode } from './rows.js';

export type Dialect = 'sqlite' | 'postgres';

type Chunk = string | { value: unknown } | { pick: (dialect: Dialect) => Sql };

/** A query or a piece of one: SQL text and the values of its parameters. */
export class Sql {
  constructor(readonly chunks: readonly Chunk[]) {}
}

export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  const chunks: Chunk[] = [];
  strings.forEach((text, i) => {
    if (text !== '') chunks.push(text);
    if (i >= values.length) return;
    const value = values[i];
    if (value instanceof Sql) chunks.push(...value.chunks);
    else chunks.push({ value });
  });
  return new Sql(chunks);
}

/** Trusted SQL text (never anything a client sent). */
export const raw = (text: string): Sql => new Sql([text]);

/** Pieces joined by `separator` (an empty list is empty SQL). */
export function join(pieces: readonly Sql[], separator: string): Sql {
  return new Sql(pieces.flatMap((piece, i) => (i === 0 ? piece.chunks : [separator, ...piece.chunks])));
}

/** What each dialect says for one thing. */
export const byDialect = (choices: Record<Dialect, Sql>): Sql => new Sql([{ pick: (dialect) => choices[dialect] }]);

/** `column` is one of `values` (never empty): `IN (?, ?)` on SQLite, `= ANY($1::type[])` on PostgreSQL. */
export function oneOf(column: Sql, values: readonly unknown[], type: 'text' | 'bigint'): Sql {
  return byDialect({
    sqlite: sql`${column} IN (${join(
      values.map((value) => sql`${value}`),
      ', ',
    )})`,
    postgres: sql`${column} = ANY(${values}${raw(`::${type}[]`)})`,
  });
}

/** `WHERE a AND b …`, or nothing without conditions. */
export const where = (conditions: readonly Sql[]): Sql =>
  conditions.length === 0 ? raw('') : sql`WHERE ${join(conditions, ' AND ')}`;

/** The text and parameter values of a query in one dialect (SQLite takes booleans as 0 and 1). */
export function render(query: Sql, dialect: Dialect): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  let text = '';
  const walk = (piece: Sql): void => {
    for (const chunk of piece.chunks) {
      if (typeof chunk === 'string') text += chunk;
      else if ('pick' in chunk) walk(chunk.pick(dialect));
      else {
        values.push(dialect === 'sqlite' && typeof chunk.value === 'boolean' ? Number(chunk.value) : chunk.value);
        text += dialect === 'sqlite' ? '?' : `$${values.length}`;
      }
    }
  };
  walk(query);
  return { text, values };
}

export interface QueryOptions {
  /**
   * A statement whose text is built per request (list filters): PostgreSQL plans it for its values every
   * time rather than settling on one generic plan. Fixed statements are prepared once per connection.
   */
  adHoc?: boolean;
}

/** Reads over one backend's connection, in its dialect. */
export interface Db {
  readonly dialect: Dialect;
  /** How the backend returns arrays, JSON and booleans. */
  readonly decode: Decode;
  all<R>(query: Sql, options?: QueryOptions): Promise<R[]>;
  get<R>(query: Sql, options?: QueryOptions): Promise<R | undefined>;
  /** Runs reads that must agree with each other (a total and its page) on one snapshot of the data. */
  snapshot<T>(work: (db: Db) => Promise<T>): Promise<T>;
}

/** The rows `select` finds whose `column` is one of `seqs`, mapped, in the order of `seqs` (those with no row left out). */
export async function rowsInSeqOrder<R, T>(
  db: Db,
  select: Sql,
  column: string,
  seqs: readonly number[],
  map: (row: R) => T,
): Promise<T[]> {
  if (seqs.length === 0) return [];
  const found = await db.all<R & { seq: number | string }>(sql`${select} WHERE ${oneOf(raw(column), seqs, 'bigint')}`);
  const bySeq = new Map(found.map((row) => [Number(row.seq), map(row)]));
  return seqs.flatMap((seq) => bySeq.get(seq) ?? []);
}
