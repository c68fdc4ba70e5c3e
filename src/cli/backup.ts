// npm run backup -- [--out <file>]: a consistent backup of the SQLite database of REG_DATABASE_URL, taken
// while the registry serves, with the instance secret beside it. Runs from the production install
// (node dist/cli/backup.js). PostgreSQL: pg_dump (docs/operations.md).
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/index.js';
import { backupSqlite } from '../store/backup.js';
import { databaseFile, runCommand } from './ops-command.js';

runCommand('usage: npm run backup -- [--out <file>]', () => {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const source = databaseFile(
    loadConfig().databaseUrl,
    'pg_dump --format=custom --file=registry.dump "$REG_DATABASE_URL"',
  );
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = values.out ?? join(dirname(source), 'backups', `registry-${stamp}.db`);
  const result = backupSqlite(source, target);
  console.log(`backed up ${source} to ${result.file} (${result.bytes} bytes, integrity checked)`);
  console.log(
    result.secret
      ? `the instance secret is beside it: ${result.secret} (keep the two together)`
      : 'no instance secret beside the database (REG_SECRET is used): keep REG_SECRET with your backups',
  );
});
