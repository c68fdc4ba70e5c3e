// Installs are exact, atomic and pinned: the folder holds exactly the version's files, skills-lock.json lets
// `install` with no argument reproduce the set (versions and digests checked), and outdated / update move
// it to the newest versions that are not yanked. Spawned against a real registry.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { call, register, skillMd } from '../helpers/app.js';
import { type Registry, startedRegistry } from '../mcp/fixtures.js';
import { cli as run, parsed } from './run.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('install: exact, atomic, pinned', () => {
  let registry: Registry;
  let home: string;
  let key: string;
  const ids: Record<string, string> = {};
  const cli = (args: string[], cwd?: string) => run(home, ['--url', registry.url, '--key', key, ...args], { cwd });
  const publish = async (name: string, version: string, files: Record<string, string>) => {
    const body = {
      skill_md_content: skillMd({ name, metadata: `{version: "${version}"}` }),
      visibility: 'public',
      files: Object.entries(files).map(([path, text]) => ({ path, content_base64: b64(text) })),
    };
    const res = await call(registry.app, 'POST', '/v1/skills', { key, body });
    assert.equal(res.statusCode, 201, res.body);
    ids[name] = res.json().data.id;
  };
  const lock = (root: string) => JSON.parse(readFileSync(join(root, 'skills-lock.json'), 'utf8'));
  const tree = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? tree(join(folder, e.name)).map((p) => `${e.name}/${p}`) : [e.name]))
      .sort();

  before(async () => {
    registry = await startedRegistry();
    home = mkdtempSync(join(tmpdir(), 'kreg-install-'));
    key = await register(registry.app, 'pub');
    await publish('tables', '1.0.0', { 'reference.md': 'old reference\n', 'scripts/run.py': 'print(1)\n' });
    await publish('charts', '1.0.0', { 'scripts/plot.py': 'plot()\n' });
  });
  after(async () => {
    await registry.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('installs into .claude/skills and pins the version, publisher and digest in skills-lock.json', async () => {
    const project = join(home, 'project');
    mkdirSync(project);
    const result = await cli(['--json', 'install', ids.tables!, ids.charts!], project);
    assert.equal(result.code, 0, result.stderr);
    const root = join(project, '.claude', 'skills');
    assert.deepEqual(tree(root), [
      'charts/SKILL.md',
      'charts/scripts/plot.py',
      'skills-lock.json',
      'tables/SKILL.md',
      'tables/reference.md',
      'tables/scripts/run.py',
    ]);
    const pinned = lock(root);
    assert.deepEqual(Object.keys(pinned), ['lockfileVersion', 'skills']);
    assert.equal(pinned.lockfileVersion, 1);
    assert.deepEqual(Object.keys(pinned.skills), ['charts', 'tables'], 'sorted');
    const { data: served } = (await call(registry.app, 'GET', `/v1/skills/${ids.tables}`)).json();
    assert.deepEqual(pinned.skills.tables, {
      id: ids.tables,
      publisher: 'pub',
      name: 'tables',
      version: '1.0.0',
      digest: served.digest,
      registry: registry.url,
    });
    assert.match(readFileSync(join(root, 'skills-lock.json'), 'utf8'), /^\{\n {2}"lockfileVersion": 1,\n[\s\S]*\}\n$/);
  });

  it('leaves no file of an earlier version behind (install --force, update)', async () => {
    const project = join(home, 'project');
    const root = join(project, '.claude', 'skills');
    await publish('tables', '1.1.0', { 'scripts/run.py': 'print(2)\n' });
    const forced = await cli(['install', ids.tables!, '--force'], project);
    assert.equal(forced.code, 0, forced.stderr);
    assert.deepEqual(tree(join(root, 'tables')), ['SKILL.md', 'scripts/run.py'], 'reference.md is gone');
    assert.equal(readFileSync(join(root, 'tables', 'scripts', 'run.py'), 'utf8'), 'print(2)\n');
    assert.equal(lock(root).skills.tables.version, '1.1.0');

    await publish('charts', '2.0.0', { 'README.md': 'new\n' });
    const outdated = await cli(['outdated'], project);
    assert.equal(outdated.stdout, 'skill   current  latest\ncharts  1.0.0    2.0.0\n');
    const updated = await cli(['update'], project);
    assert.equal(updated.stdout, 'updated charts 1.0.0 → 2.0.0\n');
    assert.deepEqual(tree(join(root, 'charts')), ['README.md', 'SKILL.md'], 'scripts/plot.py is gone');
    assert.equal(lock(root).skills.charts.version, '2.0.0');
    assert.equal((await cli(['outdated'], project)).stdout, '2 skills pinned, all at their newest version\n');
    assert.deepEqual(readdirSync(root).sort(), ['charts', 'skills-lock.json', 'tables'], 'no temporary folders');
  });

  it('reproduces the pinned set exactly with no argument: the pinned versions, whatever is newer', async () => {
    const project = join(home, 'project');
    const root = join(project, '.claude', 'skills');
    const pinned = lock(root);
    await publish('tables', '1.2.0', { 'scripts/run.py': 'print(3)\n' });
    // A teammate's checkout: the lock file alone, and a stale, edited copy of one skill.
    const clone = join(home, 'clone');
    mkdirSync(join(clone, '.claude', 'skills', 'tables'), { recursive: true });
    writeFileSync(join(clone, '.claude', 'skills', 'skills-lock.json'), JSON.stringify(pinned));
    writeFileSync(join(clone, '.claude', 'skills', 'tables', 'SKILL.md'), 'edited by hand');
    writeFileSync(join(clone, '.claude', 'skills', 'tables', 'stray.txt'), 'left over');
    const result = await cli(['install'], clone);
    assert.equal(result.code, 0, result.stderr);
    const cloned = join(clone, '.claude', 'skills');
    for (const name of ['tables', 'charts']) assert.deepEqual(tree(join(cloned, name)), tree(join(root, name)), name);
    assert.equal(
      readFileSync(join(cloned, 'tables', 'scripts', 'run.py'), 'utf8'),
      'print(2)\n',
      '1.1.0 as pinned, not 1.2.0',
    );
    assert.deepEqual(lock(cloned), pinned, 'the lock file is not changed');
    const again = await cli(['--json', 'install'], clone);
    assert.deepEqual(
      parsed(again).map((s: { name: string; unchanged: boolean }) => [s.name, s.unchanged]),
      [
        ['charts', true],
        ['tables', true],
      ],
    );
  });

  it('refuses to reproduce a pinned version that is yanked, or whose digest the registry no longer gives, or another registry', async () => {
    const clone = join(home, 'clone');
    const root = join(clone, '.claude', 'skills');
    rmSync(join(root, 'tables'), { recursive: true });
    assert.equal(
      (await call(registry.app, 'POST', `/v1/skills/${ids.tables}/versions/1.1.0/yank`, { key })).statusCode,
      200,
    );
    const yanked = await cli(['install'], clone);
    assert.equal(yanked.code, 1);
    assert.match(yanked.stderr, /tables 1\.1\.0 is yanked .*kreg update tables, or pass --allow-yanked/);
    assert.equal(existsSync(join(root, 'tables')), false, 'nothing was written');
    assert.equal((await cli(['install', '--allow-yanked'], clone)).code, 0);
    assert.equal(
      (await cli(['outdated'], clone)).stdout,
      'skill   current  latest\ntables  1.1.0    1.2.0   current version yanked\n',
    );

    const pinned = lock(root);
    rmSync(join(root, 'tables'), { recursive: true });
    writeFileSync(
      join(root, 'skills-lock.json'),
      JSON.stringify({
        ...pinned,
        skills: { ...pinned.skills, tables: { ...pinned.skills.tables, digest: `sha256:${'0'.repeat(64)}` } },
      }),
    );
    const mismatch = await cli(['--json', 'install', '--allow-yanked'], clone);
    assert.equal(parsed(mismatch).error.code, 'LOCK_MISMATCH');
    assert.equal(existsSync(join(root, 'tables')), false);

    writeFileSync(
      join(root, 'skills-lock.json'),
      JSON.stringify({
        ...pinned,
        skills: { tables: { ...pinned.skills.tables, registry: 'http://elsewhere.example' } },
      }),
    );
    const elsewhere = await cli(['--json', 'install'], clone);
    assert.equal(parsed(elsewhere).error.code, 'REGISTRY_MISMATCH');
    writeFileSync(
      join(root, 'skills-lock.json'),
      JSON.stringify({ lockfileVersion: 1, skills: { '../escape': pinned.skills.tables } }),
    );
    const hostile = await cli(['--json', 'install'], clone);
    assert.equal(parsed(hostile).error.code, 'BAD_LOCKFILE');
    assert.match(parsed(hostile).error.message, /skills-lock\.json: skills/);
  });
});
