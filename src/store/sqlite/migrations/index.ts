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
import * as m10 from './010-version-order.js';
import * as m11 from './011-writes-at-scale.js';
import * as m12 from './012-change-log-state.js';
import * as m13 from './013-unit-tags.js';
import * as m14 from './014-lookalike-skeletons.js';
import * as m15 from './015-trust.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  backfill?: (db: Database) => void;
}

/** In order: each module's version is its place in the list. */
export const migrations: Migration[] = [m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15].map(
  (m, i) => ({
    version: i + 1,
    ...m,
  }),
);
