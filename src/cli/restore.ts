// npm run restore -- <backup file> [--force]: puts a backup in place of the SQLite database of
// REG_DATABASE_URL, with its instance secret. Stop the registry first. Runs from the production install
// (node dist/cli/restore.js). PostgreSQL: pg_restore (docs/operations.md).
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/index.js';
import { removeSnapshot } from '../search/index.js';
import { restoreSqlite } from '../store/backup.js';
import { databaseFile, runCommand, UsageError } from './ops-command.js';

runCommand('usage: npm run restore -- <backup file> [--force]   (stop the registry first)', () => {
  const { values, positionals } = parseArgs({
    options: { force: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  if (positionals.length !== 1) throw new UsageError('name one backup file');
  const config = loadConfig();
  const target = databaseFile(
    config.databaseUrl,
    'pg_restore --clean --if-exists --no-owner --dbname="$REG_DATABASE_URL" registry.dump',
  );
  const result = restoreSqlite(positionals[0]!, target, { force: values.force });
  console.log(
    `restored ${positionals[0]} to ${result.file} (${result.bytes} bytes, integrity checked)${result.secret ? `, with the instance secret ${result.secret}` : ''}`,
  );
  // The search index saved beside the replaced database holds its text: gone with it.
  if (config.searchSnapshotDir && removeSnapshot(config.searchSnapshotDir))
    console.log(`removed the search index snapshot in ${config.searchSnapshotDir}: the index is rebuilt at start-up`);
  console.log('start the registry: migrations newer than the backup run at start-up');
});
