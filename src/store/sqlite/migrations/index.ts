// SQLite migrations, one numbered file each, applied in order at start-up (see connection.ts). A
// migration is SQL, and may add a backfill that needs the domain's code (run in the same transaction).
import type { Database } from 'better-sqlite3';
import * as m1 from './001-initial-schema.js';
import * as m2 from './002-agent-origin.js';
import * as m3 from './003-idempotency-keys.js';
import * as m4 from './004-unit-counts.js';
import * as m5 from './005-standing-quotas-lookalikes.js';
import * as m6 from './006-skill-versions.js';
import * as m7 from './007-search-feed.js';
import * as m8 from './008-host-frontmatter.js';
import * as m9 from './009-search-in-the-index-only.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  backfill?: (db: Database) => void;
}

export const migrations: Migration[] = [
  { version: 1, ...m1 },
  { version: 2, ...m2 },
  { version: 3, ...m3 },
  { version: 4, ...m4 },
  { version: 5, ...m5 },
  { version: 6, ...m6 },
  { version: 7, ...m7 },
  { version: 8, ...m8 },
  { version: 9, ...m9 },
];
