// Compiles the service (and the ceiling server) to plain JavaScript under bench/.corpus/build, so the
// processes under test run as `npm start` runs them: no TypeScript loader in the measured process (tsx
// adds about 2 s to start-up and 60 MB to RSS). Per-file transpilation is exact here because the project
// compiles with isolatedModules and verbatimModuleSyntax; type errors are `npm run typecheck`'s job.
// Only files newer than their output are compiled again; dist/ is left alone. The web front's templates
// and files are copied beside its code.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

// ESNext modules: import/export kept as written (a single-file transpile cannot see package.json's "type").
const OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  target: ts.ScriptTarget.ES2022,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  sourceMap: false,
};

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function jsonFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return jsonFiles(path);
    return entry.name.endsWith('.json') ? [path] : [];
  });
}

const mtime = (path: string) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
};

/** Compiles src/ and the given extra files into outDir (mirroring paths); answers how many were compiled. */
export function buildServer(root: string, outDir: string, extra: string[]): number {
  // The output tree must be ESM like the project: a package.json saying so sits at its top.
  // Output of other compiler options is never reused.
  const stamp = join(outDir, 'options.json');
  const options = JSON.stringify({ version: ts.version, OPTIONS });
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== options) rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(stamp, options);
  let compiled = 0;
  for (const file of [...tsFiles(join(root, 'src')), ...extra.map((f) => join(root, f))]) {
    const out = join(outDir, relative(root, file)).replace(/\.ts$/, '.js');
    if (mtime(out) >= mtime(file)) continue;
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions: OPTIONS, fileName: file });
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, outputText);
    compiled++;
  }
  // Data the code imports (JSON modules) sits beside it, as tsc emits it for `npm run build`.
  for (const file of jsonFiles(join(root, 'src'))) cpSync(file, join(outDir, relative(root, file)));
  // The web front reads its templates and files beside its compiled code (as `npm run build` places them).
  for (const folder of ['templates', 'assets']) {
    cpSync(join(root, 'src', 'web', folder), join(outDir, 'src', 'web', folder), {
      recursive: true,
      filter: (path) => !path.endsWith('.ts'),
    });
  }
  return compiled;
}
