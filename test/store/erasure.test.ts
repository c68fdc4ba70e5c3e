// Erasure reaches the disk: once a unit or a skill is deleted, its text is in none of the registry's files
// on SQLite. Not in the database file (secure_delete zeroes what the deletion frees), not in its WAL (a
// checkpoint after the deletion copies it into the file and truncates the WAL), not in the search index's
// snapshot (a word only deleted items held is never saved), and not again after restarts.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openWriter } from '../../src/store/sqlite/connection.js';
import { ErasureCheckpoint } from '../../src/store/sqlite/erasure.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { call, contributeSkill, contributeUnit, register, testApp, testConfig } from '../helpers/app.js';

/** Words no analyzer changes (no suffix to stem), found nowhere else. */
const UNIT_WORD = 'quorblefax';
const SKILL_WORD = 'zindrakoth';

describe('erasure on disk (SQLite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-erasure-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'registry.db');
  const snapshot = join(dir, 'search', 'index.snapshot');
  const open = () =>
    testApp(openSqliteStore(`sqlite:${file}`), { config: testConfig({ searchSnapshotDir: join(dir, 'search') }) });
  /** Which of the words the file's raw bytes hold (none when the file does not exist). */
  const wordsIn = (path: string) =>
    existsSync(path) ? [UNIT_WORD, SKILL_WORD].filter((word) => readFileSync(path).includes(word)) : [];

  it('leaves no deleted text in the database file, its WAL or the search snapshot, also after restarts', async () => {
    let t = await open();
    await t.close();
    t = await open();
    const key = await register(t.app, 'eraser');
    const unit = await contributeUnit(t.app, key, {
      title: `Tuning the ${UNIT_WORD} cache`,
      content: {
        description: `Every ${UNIT_WORD} keeps its own cache. `.repeat(40),
        examples: [`${UNIT_WORD}.tune()`],
      },
    });
    const skill = await contributeSkill(
      t.app,
      key,
      { name: 'erasable' },
      'private',
      `# ${SKILL_WORD}\n\nRun ${SKILL_WORD} daily.\n`,
    );
    await contributeUnit(t.app, key, { title: 'A unit that stays' });
    assert.equal((await call(t.app, 'GET', `/v1/knowledge?q=${UNIT_WORD}`)).json().total, 1);
    await t.close();
    // The words are there to be found while their items live: a test that could not see them proves nothing.
    assert.deepEqual(wordsIn(file), [UNIT_WORD, SKILL_WORD]);
    assert.deepEqual(wordsIn(snapshot), [UNIT_WORD, SKILL_WORD]);

    t = await open();
    try {
      assert.equal((await call(t.app, 'DELETE', `/v1/knowledge/${unit.id}`, { key })).statusCode, 200);
      assert.equal((await call(t.app, 'DELETE', `/v1/skills/${skill.id}`, { key })).statusCode, 200);
      // Once the deletions are answered, while the registry still runs.
      assert.deepEqual(wordsIn(file), [], 'the database file');
      assert.deepEqual(wordsIn(`${file}-wal`), [], 'the WAL');
    } finally {
      await t.close();
    }
    assert.deepEqual(wordsIn(file), []);
    assert.deepEqual(wordsIn(`${file}-wal`), []);
    assert.deepEqual(wordsIn(snapshot), [], 'the snapshot saved at shutdown');

    t = await open();
    try {
      const found = await call(t.app, 'GET', `/v1/knowledge?q=${UNIT_WORD}`);
      assert.equal(found.json().total, 0);
      assert.equal((await call(t.app, 'GET', '/v1/knowledge?q=stays')).json().total, 1);
    } finally {
      await t.close();
    }
    assert.deepEqual(wordsIn(snapshot), [], 'the snapshot saved after a restart');
    assert.deepEqual(wordsIn(file), []);
  });

  it('checkpoints a deletion out of the WAL once a reader that held it back is done, without waiting on it', async () => {
    const path = join(dir, 'held.db');
    const writer = openWriter(path, 1024);
    const reader = new Database(path, { readonly: true });
    const erasure = new ErasureCheckpoint(writer);
    try {
      writer.exec('CREATE TABLE notes (text TEXT)');
      writer.prepare('INSERT INTO notes VALUES (?)').run(`${UNIT_WORD} `.repeat(100));
      reader.prepare('BEGIN').run();
      reader.prepare('SELECT count(*) FROM notes').get(); // a list under way holds the WAL
      writer.prepare('DELETE FROM notes').run();
      await erasure.afterDeletion();
      assert.deepEqual(wordsIn(`${path}-wal`), [UNIT_WORD], 'held back: the deletion is answered all the same');
      reader.prepare('COMMIT').run();
      // Tried again every half second; a bound only against a checkpoint that never comes.
      for (let waited = 0; wordsIn(`${path}-wal`).length > 0 && waited < 30_000; waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(wordsIn(`${path}-wal`), []);
      assert.deepEqual(wordsIn(path), []);
    } finally {
      erasure.stop();
      reader.close();
      writer.close();
    }
  });
});
