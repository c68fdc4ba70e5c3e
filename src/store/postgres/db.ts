// The shared reads' Db over the PostgreSQL pool: fixed statements prepared once per connection (named
// after their text), statements built per request planned each time, and snapshots as read-only
// REPEATABLE READ transactions.
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { postgresDecode } from '../rows.js';
import { render, type Db, type QueryOptions, type Sql } from '../sql.js';
import { inTransaction, READ_ONE_SNAPSHOT, run, runAdHoc, type Queryable } from './connection.js';

export function postgresDb(pool: Pool): Db {
  return over(pool, (work) => inTransaction(pool, (client) => work(inSnapshot(client)), READ_ONE_SNAPSHOT));
}

/** Reads inside a snapshot's transaction; a snapshot asked for there is the same one. */
function inSnapshot(client: PoolClient): Db {
  const db: Db = over(client, (work) => work(db));
  return db;
}

function over(queryable: Queryable, snapshot: <T>(work: (db: Db) => Promise<T>) => Promise<T>): Db {
  const rows = async <R>(query: Sql, options?: QueryOptions): Promise<R[]> => {
    const { text, values } = render(query, 'postgres');
    const result = options?.adHoc
      ? await runAdHoc<QueryResultRow>(queryable, text, values)
      : await run<QueryResultRow>(queryable, text, values);
    return result.rows as R[];
  };
  return {
    dialect: 'postgres',
    decode: postgresDecode,
    all: rows,
    get: async <R>(query: Sql, options?: QueryOptions) => (await rows<R>(query, options))[0],
    snapshot,
  };
}
