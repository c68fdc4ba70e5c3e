// The stdio proxy's backend is ready for skills with bundles (issue 14): it lists their files with SEP
// digests and reads each from GET /v1/skills/:id/files/<path>.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { describe, it } from 'node:test';
import { RegistryClient } from '../../src/cli/client.js';
import { restBackend } from '../../src/cli/rest-backend.js';
import type { Skill } from '../../src/domain/model.js';
import { sha256Digest } from '../../src/mcp/skill-uris.js';
import { skillMd } from '../helpers/app.js';

describe('the REST backend of the stdio MCP server, with bundles', () => {
  it('lists every file with a sha256: digest and a media type, and reads text as text and bytes as a blob', async () => {
    const files: Record<string, Buffer> = { 'references/FORMS.md': Buffer.from('# Forms\n'), 'assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]) };
    const server = createServer((request, response) => {
      const path = decodeURIComponent(request.url ?? '').replace('/v1/skills/sk_1/files/', '');
      response.end(files[path] ?? '');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const backend = restBackend(new RegistryClient(`http://127.0.0.1:${(server.address() as { port: number }).port}`, undefined));
      const content = skillMd();
      const skill = {
        id: 'sk_1',
        name: 'pdf-tools',
        agent_id: 'alice',
        skill_md_content: content,
        files: [
          { path: 'SKILL.md', size: content.length, digest: 'a'.repeat(64) },
          { path: 'references/FORMS.md', size: 8, digest: `sha256:${'b'.repeat(64)}` },
          { path: 'assets/logo.png', size: 4, digest: 'C'.repeat(64) },
        ],
      } as unknown as Skill;
      const listed = await backend.skillFiles(skill);
      assert.deepEqual(
        listed.map((f) => [f.path, f.digest, f.mimeType]),
        [
          ['SKILL.md', sha256Digest(content), 'text/markdown'],
          ['references/FORMS.md', `sha256:${'b'.repeat(64)}`, 'text/markdown'],
          ['assets/logo.png', `sha256:${'c'.repeat(64)}`, 'application/octet-stream'],
        ],
      );
      assert.deepEqual(await backend.readSkillFile(skill, listed[1]!), { text: '# Forms\n' });
      assert.deepEqual(await backend.readSkillFile(skill, listed[2]!), { blob: Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64') });
      assert.deepEqual(await backend.readSkillFile(skill, listed[0]!), { text: content });
    } finally {
      server.close();
    }
  });
});
