// What a test run can reach besides SQLite, and why not when it cannot: the suites that need a service or
// a program skip with this reason, and `npm test` names them all at its start and end (scripts/test-run.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** REG_CHROMIUM when set (and only it), else Debian's or Ubuntu's package. */
export function findChromium(): { path: string } | { missing: string } {
  const named = process.env.REG_CHROMIUM?.trim();
  if (named)
    return existsSync(named) ? { path: named } : { missing: `REG_CHROMIUM names ${named}, which does not exist` };
  const path = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((candidate) => existsSync(candidate));
  return path
    ? { path }
    : {
        missing:
          'Chromium is not installed: run `sudo bash scripts/install-chromium.sh` (Debian/Ubuntu), or set REG_CHROMIUM to a Chromium binary',
      };
}

/** Node 22 beside this Node, with better-sqlite3 compiled for it, for the production build's second major. */
export const NODE22 = join(ROOT, '.tmp', 'node22');
export function node22Missing(): string | undefined {
  if (process.versions.node.startsWith('22.')) return undefined;
  return existsSync(join(NODE22, 'better_sqlite3.node'))
    ? undefined
    : 'no Node 22 in .tmp/node22 (scripts/install-node22.sh installs it and compiles better-sqlite3 for it)';
}

/** Each backend or service a run may cover: null when it runs, else why not. */
export function coverage(): [string, string | null][] {
  const chromium = findChromium();
  return [
    ['SQLite', null],
    ['PostgreSQL', process.env.REG_TEST_DATABASE_URL?.trim() ? null : 'REG_TEST_DATABASE_URL is not set'],
    ['Redis', process.env.REG_TEST_REDIS_URL?.trim() ? null : 'REG_TEST_REDIS_URL is not set'],
    ['Chromium (browser tests)', 'missing' in chromium ? chromium.missing : null],
    ['Node 22 (the production build on the second major)', node22Missing() ?? null],
  ];
}
