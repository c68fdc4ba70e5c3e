// The stdio server's backend (the REST API over HTTP) serves a skill with a bundle exactly as the /mcp
// route's backend does (the services in process): the same frontmatter, file listing, digests and media
// types (the registry's own), and the same file contents.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RegistryClient } from '../../src/cli/client.js';
import { restBackend } from '../../src/cli/rest-backend.js';
import { ANONYMOUS } from '../../src/domain/caller.js';
import { randomIds } from '../../src/domain/ids.js';
import type { RegistryBackend } from '../../src/mcp/backend.js';
import { serviceBackend } from '../../src/mcp/service-backend.js';
import { call, fakeClock, register, skillMd, testConfig } from '../helpers/app.js';
import { startedRegistry, type Registry } from './fixtures.js';

const FILES = {
  'scripts/helper.py': Buffer.from('print("hi")\n'),
  'references/FORMS.md': Buffer.from('# Forms\n'),
  'assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
};

describe('the two MCP backends, on a skill with a bundle', () => {
  let registry: Registry;
  let backends: [string, RegistryBackend][];
  let listedFiles: { path: string; media_type: string; digest: string }[];

  before(async () => {
    registry = await startedRegistry();
    const key = await register(registry.app, 'alice');
    const files = Object.entries(FILES).map(([path, content]) => ({
      path,
      content_base64: content.toString('base64'),
    }));
    const res = await call(registry.app, 'POST', '/v1/skills', {
      key,
      body: { skill_md_content: skillMd(), visibility: 'public', files },
    });
    assert.equal(res.statusCode, 201, res.body);
    listedFiles = res.json().data.files;
    const log = { warn() {}, error() {} };
    backends = [
      ['REST', restBackend(new RegistryClient(registry.url, undefined))],
      [
        'services',
        serviceBackend(
          { store: registry.store, config: testConfig(), clock: fakeClock(), ids: randomIds, search: null },
          ANONYMOUS,
          log,
        ),
      ],
    ];
  });
  after(() => registry.close());

  it('list the files with the registry’s media types and digests, and read text as text and bytes as a blob', async () => {
    const answers = [];
    for (const [name, backend] of backends) {
      const page = await backend.hostSkillPage(0);
      assert.equal(page.skills.length, 1, name);
      const skill = page.skills[0]!;
      assert.deepEqual(
        skill.files.map((f) => [f.path, f.media_type, f.digest]),
        listedFiles.map((f) => [f.path, f.media_type, f.digest]),
        name,
      );
      const found = await backend.findHostSkill('alice', 'pdf-tools');
      assert.deepEqual(found, skill, name);
      const text = await backend.readSkillFile(skill, {
        path: 'scripts/helper.py',
        digest: '',
        size: 0,
        mimeType: 'text/plain',
      });
      const blob = await backend.readSkillFile(skill, {
        path: 'assets/logo.png',
        digest: '',
        size: 0,
        mimeType: 'image/png',
      });
      const md = await backend.readSkillFile(skill, {
        path: 'SKILL.md',
        digest: '',
        size: 0,
        mimeType: 'text/markdown',
      });
      assert.deepEqual(text, { text: 'print("hi")\n' }, name);
      assert.deepEqual(blob, { blob: FILES['assets/logo.png'].toString('base64') }, name);
      assert.deepEqual(md, { text: skillMd() }, name);
      answers.push(page);
    }
    assert.deepEqual(answers[0], answers[1]);
  });
});
