// Property-based fuzzing of bundle paths (src/domain/bundles.ts): random sets of paths built from names that
// break things on some system (case and Unicode look-alikes, Windows device names, trailing dots, VCS
// metadata, tool configuration, `a` beside `a/b`, SKILL.md as a folder, over-long names, traversal).
//
//   1. checkBundle never throws; a refusal names files.N.path (or files.N…) and, for a path, its rule;
//   2. what it accepts can be installed: replaceFolder (the command line's installer) writes every file on
//      this file system and reads back each content intact, and a model of the stricter systems (case-
//      insensitive macOS and Windows, Windows names) finds no two paths that would land on one file or a
//      file where a folder must be, and no name that runs code;
//   3. publication over HTTP answers 201 or a 400 naming the file, never anything else.
//
// Runs: REG_FUZZ_RUNS (default 150); seed REG_FUZZ_SEED; REG_FUZZ_PATH replays a counterexample.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { replaceFolder } from '../../src/cli/install/folder.js';
import { checkBundle, normalizeBundlePath, versionDigest } from '../../src/domain/bundles.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { call, register, skillMd, testApp } from '../helpers/app.js';
import { announce, fcParams, RUNS } from './harness.js';

// Plain names (most paths are ordinary), and names that break something somewhere.
const PLAIN = [
  'a',
  'b',
  'c',
  'scripts',
  'references',
  'ok.py',
  'a.md',
  'README',
  'notes.txt',
  '.gitignore',
  '.github',
  'workflows',
  '.husky',
  'é',
];
const TRICKY = [
  'A',
  'Scripts',
  'A.md',
  'SKILL.md',
  'skill.md',
  'Skill.MD',
  '.git',
  '.GIT',
  'Git~1',
  '.gitattributes',
  '.hg',
  'CVS',
  '_darcs',
  '.jj',
  '.envrc',
  '.vscode',
  'tasks.json',
  '.idea',
  '.claude',
  'settings.json',
  'CON',
  'con.txt',
  'nul',
  'COM1',
  'lpt9.log',
  'CONIN$',
  'x.',
  'x ',
  ' x',
  '...',
  '.',
  '..',
  '',
  'e\u0301',
  'ß',
  'SS',
  'ss',
  'ſ',
  'K',
  '\u212A',
  'x'.repeat(128),
  'é'.repeat(128),
  '日'.repeat(90),
  'a:b',
  'a\\b',
  'tab\t',
  '\u200Bx',
  'CON.',
  'con .txt',
];
const segment = fc.oneof(
  { arbitrary: fc.constantFrom(...PLAIN), weight: 6 },
  { arbitrary: fc.constantFrom(...TRICKY), weight: 1 },
);

const path = fc
  .tuple(
    fc.oneof({ arbitrary: fc.constant(''), weight: 8 }, fc.constantFrom('./', '/')),
    fc.array(segment, { minLength: 1, maxLength: 4 }),
    fc.oneof({ arbitrary: fc.constant(''), weight: 8 }, fc.constant('/')),
  )
  .map(([lead, segments, trail]) => `${lead}${segments.join('/')}${trail}`);
const bundle = fc.uniqueArray(path, { minLength: 1, maxLength: 6 });

const VCS = new Set([
  '.git',
  'git~1',
  '.hg',
  '.svn',
  '.bzr',
  '_darcs',
  'cvs',
  '.jj',
  '.sl',
  '.pijul',
  '.fslckout',
  '_fossil_',
]);
const RUNS_CODE = new Set(['.envrc', '.vscode', '.idea']);
const fold = (text: string) => text.normalize('NFC').toUpperCase().toLowerCase();

/** A model of the strictest systems, written apart from the code under test: why a set cannot be installed. */
function modelProblem(paths: string[]): string | null {
  const all = ['SKILL.md', ...paths];
  for (const p of paths) {
    for (const segment of p.split('/')) {
      const f = fold(segment);
      if (VCS.has(f) || RUNS_CODE.has(f)) return `${p}: runs code`;
      if (/^(con|prn|aux|nul|com\d|lpt\d|conin\$|conout\$)(\.|$)/.test(f)) return `${p}: Windows name`;
      if (segment.endsWith('.') || segment.endsWith(' ')) return `${p}: trailing dot or space`;
      if (Buffer.byteLength(segment) > 255) return `${p}: name too long`;
    }
    if (/(^|\/)\.claude\/settings(\.local)?\.json$/.test(fold(p))) return `${p}: runs code`;
  }
  for (const [i, p] of all.entries()) {
    for (const q of all.slice(i + 1)) {
      if (fold(p) === fold(q)) return `${p} and ${q}: one file`;
      if (fold(q).startsWith(`${fold(p)}/`) || fold(p).startsWith(`${fold(q)}/`))
        return `${p} and ${q}: file and folder`;
    }
  }
  return null;
}

const filesOf = (paths: string[]) =>
  paths.map((p, i) => ({ path: p, content_base64: Buffer.from(`content ${i}`).toString('base64') }));

describe('bundle paths (fuzz)', () => {
  it('checkBundle refuses by name and rule, and what it accepts can be installed everywhere', async (t) => {
    announce(t, RUNS);
    const root = mkdtempSync(join(tmpdir(), 'kreg-fuzz-paths-'));
    let accepted = 0;
    let installs = 0;
    try {
      await fc.assert(
        fc.asyncProperty(bundle, async (paths) => {
          const checked = checkBundle(filesOf(paths));
          if (!checked.ok) {
            assert.match(checked.field, /^files(\.\d+\.(path|content_base64))?$/);
            if (checked.field.endsWith('.path'))
              assert.match(checked.message, /^files\.\d+\.path .* \(rule [a-z_]+\)$/);
            return;
          }
          accepted++;
          const normal = checked.files.map((f) => f.path);
          assert.equal(modelProblem(normal), null, `accepted ${JSON.stringify(paths)}`);
          const target = join(root, `skill-${installs++}`);
          await replaceFolder(
            target,
            [
              { path: 'SKILL.md', bytes: new Uint8Array(Buffer.from('md')) },
              ...checked.files.map((f) => ({ path: f.path, bytes: new Uint8Array(f.content) })),
            ],
            versionDigest('md', checked.files),
          );
          for (const file of checked.files)
            assert.deepEqual(readFileSync(join(target, ...file.path.split('/'))), file.content, file.path);
          rmSync(target, { recursive: true });
        }),
        fcParams(RUNS),
      );
      // Every set the model allows is accepted: the rule refuses nothing more than it says.
      fc.assert(
        fc.property(bundle, (paths) => {
          const normal = paths.map((p) => normalizeBundlePath(p));
          if (normal.some((n) => 'error' in n)) return;
          const unique = new Set(normal.map((n) => (n as { path: string }).path));
          if (unique.size !== normal.length || modelProblem([...unique]) !== null) return;
          assert.equal(checkBundle(filesOf(paths)).ok, true, JSON.stringify(paths));
        }),
        fcParams(RUNS),
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    t.diagnostic(`accepted ${accepted} of ${RUNS} path sets`);
  });

  it('publication answers 201 or a 400 naming the file, never anything else', async (t) => {
    announce(t, RUNS);
    const app = await testApp(openSqliteStore('sqlite::memory:'));
    try {
      const key = await register(app.app, 'fuzzer');
      let n = 0;
      await fc.assert(
        fc.asyncProperty(bundle, async (paths) => {
          const body = {
            skill_md_content: skillMd({ name: `paths-${n++}` }),
            visibility: 'public',
            files: filesOf(paths),
          };
          const res = await call(app.app, 'POST', '/v1/skills', { key, body });
          assert.ok([201, 400].includes(res.statusCode), `${res.statusCode} ${res.body}`);
          if (res.statusCode === 400) assert.match(res.json().error.message, /^files(\.\d+)?/);
          else assert.equal(checkBundle(filesOf(paths)).ok, true);
        }),
        fcParams(RUNS),
      );
    } finally {
      await app.close();
    }
  });
});
