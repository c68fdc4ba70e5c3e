// Every API action has a command: versions, yank/unyank, delete (confirmed), units show/add/validate/delete,
// reputation, keys list/revoke, whoami, and export without an agent id. Spawned against a real registry.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { call, register, skillMd, unitBody } from '../helpers/app.js';
import { type Registry, startedRegistry } from '../mcp/fixtures.js';
import { assertNoStack, closedPort, cli as run, parsed } from './run.js';

describe('the command line: lifecycle and account commands', () => {
  let registry: Registry;
  let home: string;
  let url: string;
  let skillId: string;
  const cli = (args: string[], env: Record<string, string> = {}) => run(home, ['--url', url, ...args], { env });

  before(async () => {
    registry = await startedRegistry();
    url = registry.url;
    home = mkdtempSync(join(tmpdir(), 'kreg-lifecycle-'));
    assert.equal((await cli(['register', 'lena'])).code, 0);
    const dir = join(home, 'tables');
    mkdirSync(dir);
    writeFileSync(join(dir, 'SKILL.md'), skillMd({ name: 'tables' }));
    skillId = parsed(await cli(['--json', 'publish', dir])).data.id;
    writeFileSync(join(dir, 'SKILL.md'), skillMd({ name: 'tables', description: 'Tables, second version.' }));
    assert.equal((await cli(['publish', dir])).code, 0);
  });
  after(async () => {
    await registry.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('lists versions, yanks and restores one, and shows a yanked version as yanked', async () => {
    const versions = await cli(['versions', skillId]);
    assert.equal(versions.code, 0, versions.stderr);
    assert.match(versions.stdout, /^version +published +files +digest\n1\.0\.1 .* 0 +sha256:[0-9a-f]{12}…\n1\.0\.0 /);
    const yank = await cli(['yank', `${skillId}@1.0.1`]);
    assert.equal(yank.stdout, `yanked tables 1.0.1 (${skillId}); the latest version is now 1.0.0\n`);
    assert.match((await cli(['versions', skillId])).stdout, /\n1\.0\.1 .*yanked\n/);
    const shown = await cli(['show', `${skillId}@1.0.1`]);
    assert.match(
      shown.stdout,
      /^tables {2}\(sk_\S+\)\nversion 1\.0\.1 \[YANKED: withdrawn by its publisher; the latest is 1\.0\.0\]\ndigest sha256:[0-9a-f]{64}\n/,
    );
    assert.equal(parsed(await cli(['--json', 'show', `${skillId}@1.0.1`])).data.yanked, true);
    const installed = await cli(['install', `${skillId}@1.0.1`], {});
    assert.equal(installed.code, 1);
    assert.match(installed.stderr, /tables 1\.0\.1 is yanked .* pass --allow-yanked/);
    assert.equal(
      (await cli(['unyank', `${skillId}@1.0.1`])).stdout,
      `restored tables 1.0.1 (${skillId}); the latest version is now 1.0.1\n`,
    );
    const missing = await cli(['yank', skillId]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /name the version: kreg yank sk_\S+@<version>/);
    assert.equal((await cli(['yank', `${skillId}@one`])).code, 2);
  });

  it('deletes a skill only when confirmed: never without a terminal or --yes', async () => {
    const refused = await cli(['delete', skillId]);
    assert.equal(refused.code, 2);
    assert.match(
      refused.stderr,
      /^error: Deleting tables \(sk_\S+\) with 2 versions and every file cannot be undone: pass --yes to confirm/,
    );
    assert.equal((await call(registry.app, 'GET', `/v1/skills/${skillId}`)).statusCode, 200, 'nothing was deleted');
    const deleted = await cli(['--json', 'delete', skillId, '--yes']);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual(parsed(deleted), { id: skillId, deleted: true, name: 'tables', versions: 2 });
    assert.equal((await call(registry.app, 'GET', `/v1/skills/${skillId}`)).statusCode, 404);
  });

  it('shows, validates and deletes knowledge units', async () => {
    const other = await register(registry.app, 'otto');
    const unit = (await call(registry.app, 'POST', '/v1/knowledge', { key: other, body: unitBody() })).json().data
      .id as string;
    const shown = await cli(['units', 'show', unit]);
    assert.match(
      shown.stdout,
      /^Retry idempotent requests with exponential backoff {2}\(ku_\S+\)\npattern in web-development, by otto/,
    );
    const usage = await Promise.all([
      cli(['units', 'validate', unit]),
      cli(['units', 'validate', unit, '--valid', '--invalid']),
      cli(['units', 'validate', unit, '--valid', '--feedback', 'x'.repeat(5001)]),
    ]);
    assert.deepEqual(
      usage.map((r) => r.code),
      [2, 2, 2],
    );
    assert.match(usage[2]!.stderr, /--feedback must NOT have more than 5000 characters/);
    const verdict = await cli(['units', 'validate', unit, '--invalid', '--feedback', 'off by one']);
    assert.equal(verdict.stdout, `recorded your verdict on ${unit}: invalid\n`);
    assert.equal((await call(registry.app, 'GET', `/v1/knowledge/${unit}`)).json().data.validations.invalid, 1);
    const notMine = await cli(['units', 'delete', unit, '--yes']);
    assert.equal(notMine.code, 1, 'only the contributor or an admin');
    assert.match(notMine.stderr, /^error: FORBIDDEN: /);

    const file = join(home, 'unit.json');
    writeFileSync(file, JSON.stringify(unitBody({ title: 'Mine' })));
    const added = parsed(await cli(['--json', 'units', 'add', file]));
    assert.equal(added.data.title, 'Mine');
    const colours = { description: 'ANSI colours.', examples: ['printf "\u001b[31mred"'] };
    writeFileSync(file, JSON.stringify(unitBody({ title: 'Colours', content: colours })));
    const warned = await cli(['units', 'add', file]);
    const [, colourId] =
      /^added (ku_\S+): Colours \(quality [\d.]+\)\nwarning: content\.examples\.0 contains control characters \(first: U\+001B\)/.exec(
        warned.stdout,
      ) ?? assert.fail(warned.stdout);
    assert.equal((await cli(['units', 'delete', colourId!, '--yes'])).code, 0);
    writeFileSync(file, JSON.stringify(unitBody({ type: 'rumour' })));
    const bad = await cli(['units', 'add', file]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unit\.json: type must be one of pattern, technique, .*, not "rumour"/);
    assert.equal((await cli(['units', 'delete', added.data.id])).code, 2, 'no terminal, no --yes');
    assert.equal((await cli(['units', 'delete', added.data.id, '--yes'])).stdout, `deleted ${added.data.id}\n`);
  });

  it("says who the key is, lists the agent's keys and revokes one", async () => {
    const whoami = parsed(await cli(['--json', 'whoami']));
    assert.deepEqual([whoami.agent_id, whoami.credential, whoami.url], ['lena', 'api_key', url]);
    const second = parsed(await cli(['--json', 'register', 'lena', '--scopes', 'read', '--no-save']));
    const listed = await cli(['keys', 'list']);
    assert.match(
      listed.stdout,
      new RegExp(
        `^prefix +scopes +tier +created +revoked\\n${whoami.key_prefix} +read,write +free .* - +\\(this key\\)\\n${second.key_prefix} +read +free `,
      ),
    );
    assert.equal((await cli(['keys', 'revoke', 'short'])).code, 2);
    const revoked = await cli(['keys', 'revoke', second.key_prefix]);
    assert.equal(revoked.stdout, `revoked ${second.key_prefix}.\n`);
    const keys = parsed(await cli(['--json', 'keys', 'list']));
    assert.notEqual(keys.find((k: { key_prefix: string }) => k.key_prefix === second.key_prefix).revoked_at, null);
  });

  it('reads reputation and exports without an agent id: the agent the key names', async () => {
    const reputation = await cli(['reputation']);
    assert.match(
      reputation.stdout,
      /^lena: score 0\.05 REG-REP, 0 contributions, 1 validation \(updated [^)]+\)\n.* {2}contribute_knowledge {2}-0\.2 /,
    );
    assert.equal(parsed(await cli(['--json', 'reputation', 'otto'])).validations, 0);
    // A login stored without an agent id: export asks the registry whose key it is.
    const key = parsed(await cli(['--json', 'register', 'lena', '--no-save'])).api_key;
    const login = await run(home, ['--url', url, 'login', '--key', key], {
      env: { XDG_CONFIG_HOME: join(home, 'fresh') },
    });
    assert.equal(login.code, 0, login.stderr);
    const exported = await run(home, ['--url', url, '--json', 'export', '--out', join(home, 'lena.json')], {
      env: { XDG_CONFIG_HOME: join(home, 'fresh') },
    });
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(parsed(exported).agent_id, 'lena');
    const anonymous = await run(home, ['--url', url, 'export'], { env: { XDG_CONFIG_HOME: join(home, 'nobody') } });
    assert.equal(anonymous.code, 2);
    assert.match(anonymous.stderr, /no API key: log in/);
  });

  it('refuses a bad value before sending anything (exit 2, naming the flag), even with no registry there', async () => {
    const nowhere = `http://127.0.0.1:${await closedPort()}`;
    const cases: [string[], RegExp][] = [
      [['search', '--limit', 'abc'], /--limit must be integer, not "abc"/],
      [['search', '--limit', '500'], /--limit must be <= 100, not "500"/],
      [['search', '--min-quality', '2'], /--min-quality must be <= 1, not "2"/],
      [['search', '--offset', '-1'], /--offset must be >= 0/],
      [['search', 'x'.repeat(501)], /the search words must NOT have more than 500 characters/],
      [['search', '--units', '--conformant', 'true'], /--conformant filters skills, not knowledge units/],
      [['register', 'bad id!'], /agent_id must match pattern/],
      [['register', 'ok', '--tier', 'gold'], /--tier must be one of free, pro, enterprise, not "gold"/],
      [['register', 'ok', '--scopes', 'read,root'], /--scopes.*must be one of read, write, admin/],
      [['show', 'x'.repeat(65)], /the skill id must have 1 to 64 characters/],
      [['install', 'sk_x@latest'], /"latest" after @ must be a semantic version/],
      [['versions', 'x'.repeat(65)], /the skill id must NOT have more than 64 characters/],
      [['--timeout', '0', 'search'], /--timeout must be a number of seconds above 0/],
      [['--retries', '11', 'search'], /--retries must be an integer from 0 to 10/],
    ];
    for (const [args, message] of cases) {
      const result = await run(home, ['--url', nowhere, ...args]);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message, args.join(' '));
      assertNoStack(result);
    }
    const env = await run(home, ['--url', nowhere, 'search'], { env: { REG_CONNECT_TIMEOUT: 'soon' } });
    assert.equal(env.code, 2);
    assert.match(env.stderr, /REG_CONNECT_TIMEOUT must be a number of seconds/);
  });

  it('has examples in the help of every command', async () => {
    for (const command of [
      ['versions'],
      ['yank'],
      ['delete'],
      ['install'],
      ['outdated'],
      ['units', 'validate'],
      ['keys'],
      ['whoami'],
      ['reputation'],
      ['export'],
      ['search'],
      ['publish'],
    ]) {
      const help = await run(home, [...command, '--help']);
      assert.equal(help.code, 0, command.join(' '));
      assert.match(help.stdout, /Examples:\n {2}\$ kreg /, command.join(' '));
    }
  });
});
