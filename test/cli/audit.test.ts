// `kreg audit` against a real registry: the versions skills-lock.json pins, checked in one request for
// advisories, holds, yanks and removal; exit 1 at or above --level (moderate by default), 0 below it,
// and --json prints the whole answer.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { call, register, skillMd, testConfig } from '../helpers/app.js';
import { type Registry, startedRegistry } from '../mcp/fixtures.js';
import { cli as run, parsed } from './run.js';

describe('audit: what is known against the locked versions', () => {
  let registry: Registry;
  let home: string;
  let project: string;
  let key: string;
  let root: string;
  const ids: Record<string, string> = {};
  const cli = (args: string[]) => run(home, ['--url', registry.url, '--key', key, ...args], { cwd: project });
  const publish = async (name: string, version: string) => {
    const body = { skill_md_content: skillMd({ name, metadata: `{version: "${version}"}` }), visibility: 'public' };
    const res = await call(registry.app, 'POST', '/v1/skills', { key, body });
    assert.equal(res.statusCode, 201, res.body);
    ids[name] = res.json().data.id;
  };
  const advise = async (name: string, severity: string) => {
    const body = { skill_id: ids[name], versions: '<2.0.0', severity, summary: `${name} is bad`, details: 'Details.' };
    const res = await call(registry.app, 'POST', '/v1/advisories', { key: root, body });
    assert.equal(res.statusCode, 201, res.body);
  };

  before(async () => {
    registry = await startedRegistry({ config: testConfig({ openAdminRegistration: true }) });
    home = mkdtempSync(join(tmpdir(), 'kreg-audit-'));
    project = join(home, 'project');
    mkdirSync(project);
    key = await register(registry.app, 'pub');
    root = await register(registry.app, 'root', ['read', 'write', 'admin']);
    for (const name of ['tables', 'charts', 'notes']) await publish(name, '1.0.0');
    const installed = await cli(['install', ids.tables!, ids.charts!, ids.notes!]);
    assert.equal(installed.code, 0, installed.stderr);
  });
  after(async () => {
    await registry.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('passes a lock file nothing is known against', async () => {
    const clean = await cli(['audit']);
    assert.equal(clean.code, 0, clean.stderr);
    assert.equal(clean.stdout, '3 locked skills: nothing known against them\n');
  });

  it('fails at or above the level: a low advisory passes by default, a high one does not', async () => {
    await advise('charts', 'low');
    const low = await cli(['audit']);
    assert.equal(low.code, 0, low.stderr);
    assert.match(low.stdout, /charts\s+1\.0\.0\s+low\s+KREG-[0-9a-f]+: charts is bad/);
    assert.equal((await cli(['audit', '--level', 'low'])).code, 1);
    await advise('tables', 'high');
    const high = await cli(['audit']);
    assert.equal(high.code, 1);
    assert.match(high.stdout, /2 problems in 3 locked skills; 1 at or above moderate/);
    assert.equal((await cli(['audit', '--level', 'critical'])).code, 0);
    const bad = await cli(['audit', '--level', 'severe']);
    assert.equal(bad.code, 2, 'an unknown level is a usage error');
  });

  it('counts a hold as critical and a yank as low, and prints the whole answer with --json', async () => {
    const held = await call(registry.app, 'POST', '/v1/moderation/decisions', {
      key: root,
      body: { target: ids.notes, action: 'hold', reason: 'malware' },
    });
    assert.equal(held.statusCode, 201, held.body);
    const result = await cli(['--json', 'audit', '--level', 'critical']);
    assert.equal(result.code, 1);
    const answer = parsed(result);
    assert.equal(answer.level, 'critical');
    assert.deepEqual(
      answer.skills.map((s: { dir: string; found: boolean; held: boolean }) => [s.dir, s.found, s.held]),
      [
        ['charts', true, false],
        ['notes', true, true],
        ['tables', true, false],
      ],
    );
    assert.deepEqual(
      answer.problems.map((p: { dir: string; severity: string }) => [p.dir, p.severity]),
      [
        ['charts', 'low'],
        ['notes', 'critical'],
        ['tables', 'high'],
      ],
    );
  });

  it('warns when it installs a version an advisory affects, and installs it', async () => {
    await publish('alerts', '1.0.0');
    await advise('alerts', 'high');
    const installed = await cli(['install', ids.alerts!, '--dir', join(home, 'alerts')]);
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stderr, /warning: alerts 1\.0\.0 is affected by KREG-[0-9a-f]+ \(high\): alerts is bad/);
    const json = await cli(['--json', 'install', ids.alerts!, '--dir', join(home, 'alerts-json')]);
    assert.equal(json.stderr, '', 'with --json, nothing on stderr');
    assert.deepEqual(
      parsed(json).advisories.map((a: { severity: string; summary: string }) => [a.severity, a.summary]),
      [['high', 'alerts is bad']],
    );
  });

  it('says so when there is no lock file, and fails nothing', async () => {
    const empty = await run(home, ['--url', registry.url, 'audit', '--root', join(home, 'nowhere')], { cwd: project });
    assert.equal(empty.code, 0, empty.stderr);
    assert.equal(empty.stdout, '0 locked skills: nothing known against them\n');
  });
});
