// After `tsc`: the web front's templates and files (src/web/templates, src/web/assets) beside the compiled
// code in dist/web/, where the pages read them at start-up. tsc copies only what it compiles.
import { cpSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
for (const folder of ['templates', 'assets']) {
  const to = join(root, 'dist', 'web', folder);
  rmSync(to, { recursive: true, force: true });
  cpSync(join(root, 'src', 'web', folder), to, { recursive: true, filter: (path) => !path.endsWith('.ts') });
}
