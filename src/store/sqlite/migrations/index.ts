// SQLite migrations, one numbered file each, applied in order at start-up (see connection.ts).
import * as m1 from './001-initial-schema.js';
import * as m2 from './002-agent-origin.js';
import * as m3 from './003-idempotency-keys.js';
import * as m4 from './004-unit-counts.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [
  { version: 1, ...m1 },
  { version: 2, ...m2 },
  { version: 3, ...m3 },
  { version: 4, ...m4 },
];
