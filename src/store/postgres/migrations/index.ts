// PostgreSQL migrations, one numbered file each, applied in order at start-up, each in its own
// transaction, under an advisory lock so that instances starting together apply each one exactly once
// (see connection.ts).
//
// The logical schema is the SQLite one (../../sqlite/migrations/). Differences, and why:
// - Ids and timestamps are `COLLATE "C"` so ORDER BY compares bytes, exactly as SQLite does.
// - Timestamps stay ISO 8601 text: what goes in comes back unchanged, and text order is time order.
// - Array fields (examples, tags) are jsonb.
// - Every table that an export walks has (agent_id, seq), the keyset the export pages by.
import type pg from 'pg';
import * as m1 from './001-initial-schema.js';
import * as m2 from './002-idempotency-keys.js';
import * as m3 from './003-search-as-sqlite-finds-it.js';
import * as m4 from './004-standing-quotas-lookalikes.js';
import * as m5 from './005-skill-versions.js';
import * as m6 from './006-search-feed.js';
import * as m7 from './007-host-frontmatter.js';
import * as m8 from './008-search-in-the-index-only.js';
import * as m9 from './009-version-order.js';
import * as m10 from './010-writes-at-scale.js';
import * as m11 from './011-change-log-order.js';
import * as m12 from './012-numbering-aligned.js';
import * as m13 from './013-unit-tags.js';
import * as m14 from './014-lookalike-skeletons.js';
import * as m15 from './015-trust.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** A backfill that needs the domain's code, run after the SQL in the same transaction. */
  backfill?: (client: pg.Client) => Promise<void>;
}

/** In order: each module's version is its place in the list. */
export const migrations: Migration[] = [m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15].map(
  (m, i) => ({
    version: i + 1,
    ...m,
  }),
);
