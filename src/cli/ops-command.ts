// What the operator's commands (backup, restore) share: the SQLite file they work on, and one line on
// stderr for a failure (exit 2 for a usage mistake, 1 for anything else), never a stack trace.
import { ConfigError } from '../config/index.js';
import { keepNewFilesPrivate } from '../store/private-files.js';
import { sqliteFilename } from '../store/sqlite/connection.js';

export class UsageError extends Error {}

/** The SQLite file of REG_DATABASE_URL; for PostgreSQL, a usage error that names the tool to use instead. */
export function databaseFile(databaseUrl: string, postgresTool: string): string {
  if (!databaseUrl.startsWith('sqlite:'))
    throw new UsageError(`REG_DATABASE_URL names PostgreSQL: use its own tools, e.g. ${postgresTool}`);
  const file = sqliteFilename(databaseUrl);
  if (file === ':memory:')
    throw new UsageError('REG_DATABASE_URL names an in-memory database: there is nothing to back up or restore');
  return file;
}

export function runCommand(usage: string, command: () => void): void {
  try {
    keepNewFilesPrivate();
    command();
    process.exitCode = 0;
  } catch (error) {
    const message = (error as Error).message;
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${usage}\n${message}`);
      process.exitCode = 2;
    } else {
      console.error(error instanceof ConfigError ? `configuration error: ${message}` : message);
      process.exitCode = 1;
    }
  }
}
