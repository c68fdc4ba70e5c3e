// How the PostgreSQL writes are built: rows of arrays inserted in one statement (INSERT … SELECT FROM
// unnest), so one contribution and a bulk import of thousands run the same statement; and several writes
// joined into one statement, one round trip.

/** Rows per statement: large enough to amortise round trips, small enough to keep parameters modest. */
export const ROWS_PER_STATEMENT = 1_000;

/**
 * `INSERT INTO table (columns) SELECT … FROM unnest($1::type[], …) WITH ORDINALITY ORDER BY ord`: identity
 * values (seq) follow the given order, as one insert per row would. JSON columns arrive as text.
 */
export function unnestInsert(
  table: string,
  columns: readonly string[],
  types: Record<string, string>,
  returning = '',
): string {
  const typeOf = (column: string) => types[column] ?? 'text';
  const arrays = columns.map((column, i) => `$${i + 1}::${typeOf(column) === 'jsonb' ? 'text' : typeOf(column)}[]`);
  const selected = columns.map((column) => (typeOf(column) === 'jsonb' ? `t.${column}::jsonb` : `t.${column}`));
  return `INSERT INTO ${table} (${columns.join(', ')})
SELECT ${selected.join(', ')}
FROM unnest(${arrays.join(', ')}) WITH ORDINALITY AS t(${columns.join(', ')}, ord)
ORDER BY t.ord${returning ? ` RETURNING ${returning}` : ''}`;
}

/** Rows of values → one array per column. */
export function columnsOf(valueRows: unknown[][], width: number): unknown[][] {
  return Array.from({ length: width }, (_, column) => valueRows.map((values) => values[column]));
}

export function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += ROWS_PER_STATEMENT) out.push(items.slice(i, i + ROWS_PER_STATEMENT));
  return out;
}

/** A statement and its values, to run alone or as one part of a statement that writes several tables. */
export interface Statement {
  text: string;
  values: unknown[];
}

/**
 * `WITH name AS (part), … main`: several writes in one statement and one round trip, each part's
 * parameters renumbered after the previous ones' (a part's `$n` must stay within its own values). Every
 * part runs to completion even when nothing reads it, all of them on one snapshot, so no part may read
 * what another writes except through the names it returns.
 */
export function withWrites(parts: readonly (Statement & { name: string })[], main: Statement): Statement {
  if (parts.length === 0) return main;
  let offset = 0;
  const shifted = (part: Statement) => {
    const at = offset;
    offset += part.values.length;
    return part.text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + at}`);
  };
  const ctes = parts.map((part) => `${part.name} AS (${shifted(part)})`);
  const text = `WITH ${ctes.join(',\n')}\n${shifted(main)}`;
  return { text, values: [...parts.flatMap((part) => part.values), ...main.values] };
}
