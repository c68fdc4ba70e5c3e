// The shared reads' Db over a SQLite connection: statements prepared once per text, run synchronously and
// handed back as settled promises, so a chain of reads finishes before any other macrotask (a group
// commit) runs. A read-only connection of another thread (a read worker) takes its snapshots in a read
// transaction, since the writer may commit between two of its statements.
import type { Database } from 'better-sqlite3';
import { sqliteDecode } from '../rows.js';
import { render, type Db, type Sql } from '../sql.js';
import { statementCache, type Prepare } from './connection.js';

export function sqliteDb(connection: Database, options: { prepare?: Prepare; readTransactions?: boolean } = {}): Db {
  const prepare = options.prepare ?? statementCache(connection);
  // Statements are shared through the cache with the writers, some of which read one column (pluck): rows
  // are always read here as objects.
  const statement = (query: Sql) => {
    const { text, values } = render(query, 'sqlite');
    return { statement: prepare(text).pluck(false), values };
  };
  const db: Db = {
    dialect: 'sqlite',
    decode: sqliteDecode,
    all: async <R>(query: Sql) => {
      const { statement: s, values } = statement(query);
      return s.all(...values) as R[];
    },
    get: async <R>(query: Sql) => {
      const { statement: s, values } = statement(query);
      return s.get(...values) as R | undefined;
    },
    snapshot: async (work) => {
      if (!options.readTransactions) return work(db);
      connection.prepare('BEGIN').run();
      try {
        return await work(db);
      } finally {
        connection.prepare('COMMIT').run();
      }
    },
  };
  return db;
}
