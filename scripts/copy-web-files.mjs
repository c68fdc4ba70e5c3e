// After `tsc`: the web front's templates and files (src/web/templates, src/web/assets) beside the compiled
// code in dist/web/ (or <out>/web/ with `node scripts/copy-web-files.mjs <out>`), where the pages read them
// at start-up, and the scanner's rule set (src/scan/rules) in dist/scan/rules. tsc copies only what it compiles.
import { cpSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = process.argv[2] ? resolve(process.argv[2]) : join(root, 'dist');
for (const folder of ['templates', 'assets']) {
  const to = join(out, 'web', folder);
  rmSync(to, { recursive: true, force: true });
  cpSync(join(root, 'src', 'web', folder), to, { recursive: true, filter: (path) => !path.endsWith('.ts') });
}
const rules = join(out, 'scan', 'rules');
rmSync(rules, { recursive: true, force: true });
cpSync(join(root, 'src', 'scan', 'rules'), rules, { recursive: true });
