// The server-side secret that seals answers kept for idempotent replays (see http/idempotency.ts). It is
// never stored in the database, so a copy of the database opens none of them.
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import type { Config } from './config/index.js';
import { sqliteFilename } from './store/sqlite/connection.js';

export interface ServerSecret {
  secret: Buffer;
  /** Where it came from, for the start-up log. */
  source: 'REG_SECRET' | 'file' | 'process';
  file?: string;
}

/**
 * REG_SECRET when set (every instance of a deployment must share it); else, for a SQLite file, a random
 * secret kept beside the database in `<database>.secret` (mode 0600), made on first start; else (memory
 * or PostgreSQL without REG_SECRET) one per process, so replays of sealed answers work only on the
 * instance that gave them until it restarts.
 */
export function loadServerSecret(config: Config): ServerSecret {
  if (config.secret !== null) {
    // Its length is checked with the other variables (config/variables.ts).
    return { secret: Buffer.from(config.secret, 'utf8'), source: 'REG_SECRET' };
  }
  if (config.databaseUrl.startsWith('sqlite:')) {
    const filename = sqliteFilename(config.databaseUrl);
    if (filename !== ':memory:') {
      const file = `${filename}.secret`;
      try {
        return { secret: readFileSync(file), source: 'file', file };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      const secret = randomBytes(48);
      // 'wx': never overwrite a secret another process wrote at the same moment; read theirs instead.
      try {
        writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
        chmodSync(file, 0o600);
        return { secret, source: 'file', file };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        return { secret: readFileSync(file), source: 'file', file };
      }
    }
  }
  return { secret: randomBytes(48), source: 'process' };
}
