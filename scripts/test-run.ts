// npm test's last step: every test file under test/, one at a time, between two lines that say which
// backends and services the run covers and which it leaves out, with why, so that a summary of
// "skipped 4" never hides that PostgreSQL was never tested.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { coverage } from '../test/helpers/coverage.js';

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function summary(when: 'covers' | 'covered'): string {
  const all = coverage();
  const ran = all.filter(([, why]) => why === null).map(([name]) => name);
  const left = all.filter(([, why]) => why !== null).map(([name, why]) => `${name} (${why})`);
  return `npm test ${when}: ${ran.join(', ')}${left.length > 0 ? `; leaves out: ${left.join('; ')}` : '; nothing left out'}`;
}

console.log(summary('covers'));
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=1', ...testFiles('test').sort()],
  { stdio: 'inherit' },
);
child.on('exit', (code, signal) => {
  console.log(summary('covered'));
  process.exit(code ?? (signal ? 1 : 0));
});
