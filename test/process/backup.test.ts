// Backups while the registry serves: a backup taken under a stream of writes, restored into a fresh
// instance, holds every write acknowledged before it began; the commands refuse what they cannot do.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { call, register, testApp, unitBody } from '../helpers/app.js';
import { ROOT } from './server.js';

const execFileAsync = promisify(execFile);

/** Runs an operator's command (src/cli/<name>.ts) as the production install would, with its exit code. */
async function command(
  name: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(
      process.execPath,
      ['--import', 'tsx', `src/cli/${name}.ts`, ...args],
      { cwd: ROOT, env: { ...process.env, ...env } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('backup and restore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-backup-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const source = join(dir, 'live', 'registry.db');
  const backup = join(dir, 'backups', 'registry.db');
  const restored = join(dir, 'fresh', 'registry.db');

  it('a backup taken under concurrent writes holds every write acknowledged before it began', async () => {
    const live = await testApp(openSqliteStore(`sqlite:${source}`));
    const secret = randomBytes(48);
    writeFileSync(`${source}.secret`, secret, { mode: 0o600 });
    const key = await register(live.app, 'writer');
    const acknowledged: string[] = [];
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const res = await call(live.app, 'POST', '/v1/knowledge', {
          key,
          body: unitBody({ title: `Finding number ${i} about retries` }),
        });
        assert.equal(res.statusCode, 201, res.body);
        acknowledged.push(res.json().data.id as string);
      }
    })();
    while (acknowledged.length < 20) await new Promise((resolve) => setTimeout(resolve, 5));
    const beforeBackup = [...acknowledged];
    const taken = await command('backup', ['--out', backup], { REG_DATABASE_URL: `sqlite:${source}` });
    const duringBackup = acknowledged.length - beforeBackup.length;
    writing = false;
    await writer;
    await live.close();
    assert.equal(taken.code, 0, taken.stderr);
    assert.match(taken.stdout, /^backed up .* \(\d+ bytes, integrity checked\)/);
    assert.ok(duringBackup > 0, 'writes went on while the backup ran');
    assert.equal((statSync(backup).mode & 0o777).toString(8), '600');

    const put = await command('restore', [backup], { REG_DATABASE_URL: `sqlite:${restored}` });
    assert.equal(put.code, 0, put.stderr);
    assert.deepEqual(readFileSync(`${restored}.secret`), secret, 'the instance secret travels with the backup');
    const fresh = await testApp(openSqliteStore(`sqlite:${restored}`));
    try {
      for (const id of beforeBackup)
        assert.equal((await call(fresh.app, 'GET', `/v1/knowledge/${id}`)).statusCode, 200, id);
      assert.equal((await call(fresh.app, 'GET', '/v1/auth/whoami', { key })).statusCode, 200, 'keys restored too');
    } finally {
      await fresh.close();
    }
  });

  it('never overwrites: an existing backup name, or a database without --force', async () => {
    const again = await command('backup', ['--out', backup], { REG_DATABASE_URL: `sqlite:${source}` });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /exists already/);
    const over = await command('restore', [backup], { REG_DATABASE_URL: `sqlite:${restored}` });
    assert.equal(over.code, 1);
    assert.match(over.stderr, /pass --force/);
    assert.equal((await command('restore', [backup, '--force'], { REG_DATABASE_URL: `sqlite:${restored}` })).code, 0);
  });

  it('removes the search snapshot of the database it replaces', async () => {
    const snapshot = join(`${restored}.search`, 'index.snapshot');
    mkdirSync(`${restored}.search`, { recursive: true });
    writeFileSync(snapshot, 'the index of the database being replaced');
    const put = await command('restore', [backup, '--force'], { REG_DATABASE_URL: `sqlite:${restored}` });
    assert.equal(put.code, 0, put.stderr);
    assert.equal(existsSync(snapshot), false);
    assert.match(put.stdout, /removed the search index snapshot/);
  });

  it('refuses a file that is not a registry database, and names the tools for PostgreSQL', async () => {
    const junk = join(dir, 'junk.db');
    writeFileSync(junk, 'not a database');
    const bad = await command('restore', [junk, '--force'], {
      REG_DATABASE_URL: `sqlite:${join(dir, 'other', 'registry.db')}`,
    });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /is not a sound registry database/);
    assert.equal(existsSync(join(dir, 'other', 'registry.db')), false);
    const pg = await command('backup', [], { REG_DATABASE_URL: 'postgres://registry@db/registry' });
    assert.equal(pg.code, 2);
    assert.match(pg.stderr, /pg_dump/);
  });
});
