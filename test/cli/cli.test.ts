// The command line against a registry started in this process on a random port, each command spawned as a
// person or a script would run it, with a home and config directory of its own.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bundleArchive } from '../../src/domain/bundles.js';
import { call, contributeSkill, register, skillMd, unitBody } from '../helpers/app.js';
import { ROOT, type Registry, startedRegistry } from '../mcp/fixtures.js';
import { assertNoStack, closedPort, cli as run, parsed } from './run.js';

let home: string;
const cli = (args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) => run(home, args, options);

const configFile = () => join(home, '.config', 'knowledge-registry', 'config.json');

describe('the knowledge-registry command line', () => {
  let registry: Registry;
  let url: string;

  before(async () => {
    registry = await startedRegistry();
    url = registry.url;
    home = mkdtempSync(join(tmpdir(), 'kreg-cli-'));
  });
  after(async () => {
    await registry.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('registers an agent and keeps its key in the config directory, readable by its owner only', async () => {
    const run = await cli(['--url', url, '--json', 'register', 'alice']);
    assert.equal(run.code, 0, run.stderr);
    const out = parsed(run);
    assert.match(out.api_key, /^reg_/);
    assert.equal(out.config, configFile());
    assert.equal(statSync(configFile()).mode & 0o777, 0o600);
    assert.equal(statSync(join(home, '.config', 'knowledge-registry')).mode & 0o777, 0o700);
    assert.deepEqual(JSON.parse(readFileSync(configFile(), 'utf8')), { url, key: out.api_key, agent_id: 'alice' });
  });

  it('publishes a SKILL.md and a folder, and says so when the registry takes no bundles', async () => {
    const dir = join(home, 'skills', 'pdf-tools');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'SKILL.md'), skillMd());
    const file = await cli(['--url', url, 'publish', join(dir, 'SKILL.md')]);
    assert.equal(file.code, 0, file.stderr);
    assert.match(
      file.stdout,
      /^published pdf-tools 1\.0\.0 \(sk_[^)]+\), public, quality [\d.]+, SKILL\.md, sha256:[0-9a-f]{64}\n/,
    );

    const secrets = join(home, 'skills', 'pdf-secrets');
    mkdirSync(secrets, { recursive: true });
    writeFileSync(join(secrets, 'SKILL.md'), skillMd({ name: 'pdf-secrets' }));
    const folder = await cli(['--url', url, '--json', 'publish', '--private', secrets]);
    assert.equal(folder.code, 0, folder.stderr);
    assert.equal(parsed(folder).data.visibility, 'private');

    // A folder with files is a bundle: the same name gets a new version with them.
    mkdirSync(join(dir, 'scripts'));
    writeFileSync(join(dir, 'scripts', 'extract.py'), 'print("hi")\n');
    const bundle = await cli(['--url', url, '--json', 'publish', dir]);
    assert.equal(bundle.code, 0, bundle.stderr);
    assert.equal(parsed(bundle).data.version, '1.0.1');
    assert.deepEqual(
      parsed(bundle).data.files.map((f: { path: string }) => f.path),
      ['scripts/extract.py'],
    );
    const people = await cli(['--url', url, 'publish', dir]);
    assert.match(
      people.stdout,
      /^unchanged: pdf-tools 1\.0\.1 \(sk_[^)]+\) already has this content \(sha256:[0-9a-f]{64}\); nothing was published\n/,
    );
    const same = await cli(['--url', url, '--json', 'publish', dir]);
    assert.equal(same.code, 0, 'the same content again is fine: it answers the version that has it');
    assert.deepEqual(
      [parsed(same).unchanged, parsed(same).data.version, parsed(bundle).unchanged],
      [true, '1.0.1', false],
    );
    assertNoStack(same);
  });

  it('searches and shows skills and units, for people and as JSON', async () => {
    const alice = JSON.parse(readFileSync(configFile(), 'utf8')).key as string;
    const unit = await call(registry.app, 'POST', '/v1/knowledge', { key: alice, body: unitBody() });
    const unitId = unit.json().data.id as string;

    const people = await cli(['--url', url, 'search', 'pdf']);
    assert.equal(people.code, 0, people.stderr);
    assert.match(people.stdout, /sk_\S+ {2}pdf-tools 1\.0\.1 {2}by alice/);
    assert.match(people.stdout, /\n1-2 of 2 skills\n$/);
    assert.match(people.stdout, /\[private\]/, 'the stored key shows its own private skills');
    const script = parsed(await cli(['--url', url, '--json', 'search', 'pdf', '--limit', '1']));
    assert.equal(script.limit, 1);
    assert.equal(script.total, 2);
    const anonymous = parsed(
      await cli(['--url', url, '--json', 'search', 'pdf'], { env: { XDG_CONFIG_HOME: join(home, 'elsewhere') } }),
    );
    assert.equal(anonymous.total, 1, 'without the login, private skills are not there');

    const units = parsed(await cli(['--url', url, '--json', 'search', '--units', 'backoff']));
    assert.equal(units.data[0].id, unitId);

    const everything = parsed(await cli(['--url', url, '--json', 'search', 'pdf']));
    const skillId = everything.data.find((s: { name: string }) => s.name === 'pdf-tools').id as string;
    const shown = await cli(['--url', url, 'show', skillId]);
    assert.equal(shown.code, 0);
    assert.match(shown.stdout, /^pdf-tools {2}\(sk_/);
    assert.ok(shown.stdout.includes(skillMd()));
    const shownUnit = parsed(await cli(['--url', url, '--json', 'show', unitId]));
    assert.equal(shownUnit.kind, 'knowledge_unit');
    assert.equal(shownUnit.data.id, unitId);

    const missing = await cli(['--url', url, '--json', 'show', 'sk_missing']);
    assert.equal(missing.code, 1);
    assert.deepEqual(parsed(missing), {
      error: { code: 'NOT_FOUND', message: 'no skill or knowledge unit with id sk_missing', status: 404 },
    });
  });

  it('installs a skill into .claude/skills/<name>/ or --dir, and will not overwrite files it did not install without --force', async () => {
    const project = join(home, 'project');
    mkdirSync(project);
    const { data } = parsed(await cli(['--url', url, '--json', 'search', 'pdf']));
    const id = data.find((s: { name: string }) => s.name === 'pdf-tools').id as string;
    const run = await cli(['--url', url, 'install', id], { cwd: project });
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /^installed pdf-tools 1\.0\.1 \(sk_\S+\) into \S+: 2 files, sha256:[0-9a-f]{12}…, sha256 verified\n$/,
    );
    assert.equal(readFileSync(join(project, '.claude', 'skills', 'pdf-tools', 'SKILL.md'), 'utf8'), skillMd());
    assert.equal(
      readFileSync(join(project, '.claude', 'skills', 'pdf-tools', 'scripts', 'extract.py'), 'utf8'),
      'print("hi")\n',
    );
    const again = await cli(['--url', url, 'install', id], { cwd: project });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /pdf-tools 1\.0\.1 is already installed in .* \(unchanged\)/);
    const foreign = join(project, 'foreign');
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'notes.txt'), 'mine');
    const refused = await cli(['--url', url, 'install', id, '--dir', foreign], { cwd: project });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /already holds files this command did not install; pass --force/);
    assert.equal(readFileSync(join(foreign, 'notes.txt'), 'utf8'), 'mine');
    assert.equal((await cli(['--url', url, 'install', id, '--dir', foreign, '--force'], { cwd: project })).code, 0);
    assert.throws(() => statSync(join(foreign, 'notes.txt')), 'the folder holds exactly the version');
    const elsewhere = parsed(await cli(['--url', url, '--json', 'install', id, '--dir', join(home, 'vendored')]));
    assert.equal(elsewhere.dir, join(home, 'vendored'));
    assert.deepEqual(
      elsewhere.files.map((f: { path: string; verified: boolean }) => [f.path, f.verified]),
      [
        ['SKILL.md', true],
        ['scripts/extract.py', true],
      ],
      'the archive and every file are checked against their digests',
    );
  });

  it('imports units from JSONL: a summary of refusals by reason, and a re-run stores nothing twice', async () => {
    const lines = [
      JSON.stringify(unitBody({ title: 'First' })),
      JSON.stringify(unitBody({ title: 'Second' })),
      '{not json',
      JSON.stringify(unitBody({ type: 'rumour' })),
      JSON.stringify(unitBody({ type: 'gossip' })),
      '',
      JSON.stringify(unitBody({ quality_score: 1 })),
    ];
    const file = join(home, 'units.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const first = await cli(['--url', url, '--json', 'units', 'import', file]);
    assert.equal(first.code, 1, 'some lines were refused');
    const summary = parsed(first);
    assert.equal(summary.lines, 6);
    assert.equal(summary.imported, 2);
    assert.equal(summary.refused, 4);
    assert.deepEqual(
      summary.reasons.map((r: { code: string; count: number; lines: number[] }) => [r.code, r.count, r.lines]),
      [
        ['VALIDATION_ERROR', 2, [4, 5]],
        ['INVALID_JSON', 1, [3]],
        ['VALIDATION_ERROR', 1, [7]],
      ],
    );
    assert.equal(summary.reasons[2].message, 'quality_score is assigned by the server and must not be sent');
    assert.doesNotMatch(first.stderr, /importing \[/, 'no progress bar when stderr is not a terminal');

    const again = await cli(['--url', url, 'units', 'import', file]);
    assert.match(again.stdout, /0 imported, 2 already imported, 4 refused \(of 6 lines\)/);
    assert.match(again.stdout, /2 × VALIDATION_ERROR: type must be one of/);
  });

  it('exports the agent to a file or stdout', async () => {
    const out = join(home, 'alice.json');
    const run = await cli(['--url', url, '--json', 'export', '--out', out]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(parsed(run).agent_id, 'alice');
    const document = JSON.parse(readFileSync(out, 'utf8'));
    assert.equal(document.data.agent_id, 'alice');
    assert.equal(document.data.skills.length, 2);
    const streamed = JSON.parse((await cli(['--url', url, 'export'])).stdout);
    assert.equal(streamed.data.knowledge_units.length, document.data.knowledge_units.length);
    const other = await cli(['--url', url, 'export', 'bob']);
    assert.equal(other.code, 1);
  });

  it('logs in with a key it checks first, never sends a stored key to another registry, and logs out', async () => {
    const bobKey = await register(registry.app, 'bob');
    const refused = await cli(['--url', url, 'login', '--key', 'reg_0000000000000000000000000000000000000000']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /did not accept the API key/);
    const login = await cli(['--url', url, '--json', 'login', '--key', bobKey, '--agent-id', 'bob']);
    assert.equal(login.code, 0, login.stderr);
    assert.equal(statSync(configFile()).mode & 0o777, 0o600);
    assert.equal(JSON.parse(readFileSync(configFile(), 'utf8')).key, bobKey);
    const piped = await cli(['--url', url, 'login'], { env: { REG_API_KEY: bobKey } });
    assert.equal(piped.code, 0, piped.stderr);

    // Another registry (where bob's key means nothing) gets no key from the stored login.
    const other = await startedRegistry();
    try {
      await contributeSkill(other.app, await register(other.app, 'carol'));
      const there = await cli(['--url', other.url, '--json', 'search']);
      assert.equal(there.code, 0, there.stderr);
      assert.equal(parsed(there).total, 1);
    } finally {
      await other.close();
    }
    const env = await cli(['--url', url, '--json', 'export'], { env: { REG_API_KEY: bobKey } });
    assert.equal(parsed(env).data.agent_id, 'bob');
    assert.equal((await cli(['logout'])).code, 0);
    assert.throws(() => statSync(configFile()));
  });

  it('ends with the documented exit codes, printing messages and never a stack', async () => {
    const usage = await Promise.all([
      cli(['frobnicate']),
      cli(['search', '--limit', 'many']),
      cli(['show']),
      cli(['units']),
    ]);
    for (const run of usage) {
      assert.equal(run.code, 2, run.stderr);
      assertNoStack(run);
    }
    const closed = await closedPort();
    const unreachable = await cli(['--url', `http://127.0.0.1:${closed}`, '--retries', '0', 'search']);
    assert.equal(unreachable.code, 3);
    assert.equal(unreachable.stderr, `error: cannot reach the registry at http://127.0.0.1:${closed}: ECONNREFUSED\n`);
    const retried = await cli(['--url', `http://127.0.0.1:${closed}`, 'search']);
    assert.equal(retried.code, 3);
    assert.match(
      retried.stderr,
      /^network error \(ECONNREFUSED\): waiting 1s \(then attempt 2\)\nnetwork error \(ECONNREFUSED\): waiting 1s \(then attempt 3\)\nerror: .*: ECONNREFUSED \(3 attempts\)\n$/,
    );
    const unreachableJson = await cli(['--url', `http://127.0.0.1:${closed}`, '--json', 'search']);
    assert.equal(parsed(unreachableJson).error.code, 'UNREACHABLE');
    const refused = await cli(['--url', url, '--key', 'reg_0000000000000000000000000000000000000000', 'search']);
    assert.equal(refused.code, 1);
    assertNoStack(refused);
    const help = await cli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Exit codes:/);
    assert.equal(
      (await cli(['--version'])).stdout.trim(),
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version,
    );
  });
});

describe('install, against a registry that serves bundles with digests', () => {
  let server: Server;
  let base: string;
  const skillMdText = skillMd({ name: 'bundled' });
  const script = 'print("extract")\n';
  const digest = (bytes: string | Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  let served: Record<string, string>;

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'kreg-bundle-'));
    served = { 'scripts/extract.py': script };
    // What the registry says the version holds; the archive is made from `served`, which a test tampers with.
    const promised = bundleArchive(skillMdText, [
      { path: 'scripts/extract.py', content: new Uint8Array(Buffer.from(script)) },
    ]);
    server = createServer((request, response) => {
      const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
      const files = [{ path: 'scripts/extract.py', size: script.length, digest: digest(script) }];
      if (path === '/v1/skills/sk_bundled' || path === '/v1/skills/sk_unsafe') {
        const unsafe = path.endsWith('unsafe') ? [{ path: '../escape.txt', size: 1, digest: digest('x') }] : [];
        const skill = {
          id: path.split('/').pop(),
          name: 'bundled',
          version: '1.0.0',
          agent_id: 'x',
          skill_md_content: skillMdText,
          digest: digest(promised),
          files: [...files, ...unsafe],
        };
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ data: skill }));
      } else if (
        path === '/v1/skills/sk_bundled/versions/1.0.0/archive.zip' ||
        path === '/v1/skills/sk_unsafe/versions/1.0.0/archive.zip'
      ) {
        response.setHeader('content-type', 'application/zip');
        response.end(
          Buffer.from(
            bundleArchive(
              skillMdText,
              Object.entries(served).map(([p, text]) => ({ path: p, content: new Uint8Array(Buffer.from(text)) })),
            ),
          ),
        );
      } else {
        response.statusCode = 404;
        response.end(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'not here' } }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(() => {
    server.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('writes every file after checking its sha256 digest', async () => {
    const dir = join(home, 'ok');
    const run = await cli(['--url', base, '--json', 'install', 'sk_bundled', '--dir', dir]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      parsed(run).files.map((f: { path: string; verified: boolean }) => [f.path, f.verified]),
      [
        ['SKILL.md', true],
        ['scripts/extract.py', true],
      ],
    );
    assert.equal(readFileSync(join(dir, 'scripts', 'extract.py'), 'utf8'), script);
  });

  it('writes nothing when a file differs from its digest, or its path leaves the folder', async () => {
    served['scripts/extract.py'] = 'print("tampered")\n';
    const dir = join(home, 'tampered');
    const run = await cli(['--url', base, 'install', 'sk_bundled', '--dir', dir]);
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /the archive of version 1\.0\.0: the content's sha256 .* differs from the registry's digest/,
    );
    assert.throws(() => statSync(join(dir, 'SKILL.md')), 'nothing was written');
    const unsafe = await cli(['--url', base, '--json', 'install', 'sk_unsafe', '--dir', join(home, 'unsafe')]);
    assert.equal(unsafe.code, 1);
    assert.equal(parsed(unsafe).error.code, 'UNSAFE_PATH');
  });
});
