// Replacing an installed folder is all or nothing, and an installation's digest can be read back from disk.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CommandFailed } from '../../src/cli/context.js';
import { installedDigest, replaceFolder, replaceFolders } from '../../src/cli/install/folder.js';
import { versionDigest } from '../../src/domain/bundles.js';

const file = (path: string, text: string) => ({ path, bytes: new Uint8Array(Buffer.from(text)) });
type File = ReturnType<typeof file>;
/** The version digest of `files`, as the registry computes it. */
const digestOf = (files: File[]) =>
  versionDigest(
    Buffer.from(files.find((f) => f.path === 'SKILL.md')!.bytes).toString('utf8'),
    files.filter((f) => f.path !== 'SKILL.md').map((f) => ({ path: f.path, content: f.bytes })),
  );
const replace = (target: string, files: File[]) => replaceFolder(target, files, digestOf(files));

describe('replaceFolder', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'kreg-folder-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('makes the folder hold exactly the files given', async () => {
    const target = join(root, 'skill');
    await replace(target, [file('SKILL.md', 'one'), file('reference.md', 'ref')]);
    await replace(target, [file('SKILL.md', 'two'), file('scripts/run.py', 'run')]);
    assert.deepEqual(readdirSync(target).sort(), ['SKILL.md', 'scripts']);
    assert.equal(readFileSync(join(target, 'SKILL.md'), 'utf8'), 'two');
    assert.deepEqual(readdirSync(root), ['skill']);
  });

  it('leaves the old folder untouched and no temporary folder when writing fails halfway', async () => {
    const target = join(root, 'kept');
    await replace(target, [file('SKILL.md', 'old')]);
    // A name longer than any file system allows fails after the first file is written.
    await assert.rejects(replace(target, [file('SKILL.md', 'new'), file('x'.repeat(300), 'y')]), /ENAMETOOLONG/);
    assert.deepEqual(readdirSync(target), ['SKILL.md']);
    assert.equal(readFileSync(join(target, 'SKILL.md'), 'utf8'), 'old');
    assert.deepEqual(readdirSync(root).sort(), ['kept', 'skill']);
  });

  it('replaces nothing when the files written do not have the digest expected, and leaves no temporary folder', async () => {
    const target = join(root, 'pinned');
    await replace(target, [file('SKILL.md', 'pinned')]);
    const expected = digestOf([file('SKILL.md', 'pinned')]);
    await assert.rejects(
      replaceFolder(target, [file('SKILL.md', 'swapped')], expected),
      (error: CommandFailed) =>
        error.code === 'DIGEST_MISMATCH' && error.message.includes(`not ${expected}; nothing was changed`),
    );
    assert.deepEqual(readdirSync(target), ['SKILL.md']);
    assert.equal(readFileSync(join(target, 'SKILL.md'), 'utf8'), 'pinned');
    assert.deepEqual(readdirSync(root).sort(), ['kept', 'pinned', 'skill']);
  });

  it('writes and checks every folder before it replaces the first', async () => {
    const first = join(root, 'first');
    const second = join(root, 'second');
    await replace(first, [file('SKILL.md', 'first, old')]);
    const good = [file('SKILL.md', 'first, new')];
    await assert.rejects(
      replaceFolders([
        { target: first, files: good, digest: digestOf(good) },
        { target: second, files: [file('SKILL.md', 'second')], digest: digestOf(good) },
      ]),
      /DIGEST_MISMATCH|not sha256:/,
    );
    assert.equal(readFileSync(join(first, 'SKILL.md'), 'utf8'), 'first, old');
    assert.deepEqual(readdirSync(root).sort(), ['first', 'kept', 'pinned', 'skill']);
  });
});

describe('installedDigest', () => {
  it("is the registry's version digest of what the folder holds, and null for anything but plain files", async () => {
    const root = mkdtempSync(join(tmpdir(), 'kreg-digest-'));
    try {
      const folder = join(root, 'skill');
      mkdirSync(join(folder, 'scripts'), { recursive: true });
      writeFileSync(join(folder, 'SKILL.md'), 'md');
      assert.equal(await installedDigest(folder), versionDigest('md', []));
      writeFileSync(join(folder, 'scripts', 'a.py'), 'a');
      assert.equal(
        await installedDigest(folder),
        versionDigest('md', [{ path: 'scripts/a.py', content: new Uint8Array(Buffer.from('a')) }]),
      );
      symlinkSync('/etc/passwd', join(folder, 'link'));
      assert.equal(await installedDigest(folder), null);
      assert.equal(await installedDigest(join(root, 'missing')), null);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
